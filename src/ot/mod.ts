/**
 * The operational-transform core: the text operation in code points
 * (retain, delete, insert) with compose, transform and invert, a chunked
 * text buffer for long histories, and the OT client as a pure state
 * machine. Imports nothing else of the package.
 *
 * @module
 */

export type { Component } from "./component.ts";
export { fromOwnedJSON, TextOperation } from "./operation.ts";
export { TextBuffer, type TextWindow } from "./text_buffer.ts";
export { DeferredInverses } from "./deferred_inverses.ts";
export { TextLocator, type TextPlace } from "./text_locator.ts";
export { TextLines } from "./text_lines.ts";
export {
  applyClient,
  applyServer,
  type AwaitingConfirm,
  type AwaitingWithBuffer,
  type ClientState,
  type EditToSend,
  serverAck,
  type Synchronized,
  synchronized,
  type Transition,
} from "./client_state.ts";

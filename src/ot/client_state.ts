/**
 * The OT client as a pure state machine, after ot.js `lib/client.js`. Each
 * event returns the next state and what to do (an edit to send, an operation
 * to apply to the local text); the socket session does it.
 *
 * ```text
 * Synchronized --local edit--> AwaitingConfirm --local edit--> AwaitingWithBuffer
 *      ^                           |      ^                          |
 *      +----------ack--------------+      +-----------ack------------+ (sends the buffer)
 * ```
 *
 * @module
 */

import type { TextOperation } from "./operation.ts";

/** Nothing of ours is in flight. */
export interface Synchronized {
  /** Discriminant. */
  readonly kind: "synchronized";
  /** Operations of the pad's history applied locally. */
  readonly revision: number;
}

/** One operation of ours was sent and not yet acknowledged. */
export interface AwaitingConfirm {
  /** Discriminant. */
  readonly kind: "awaitingConfirm";
  /** Operations of the pad's history applied locally. */
  readonly revision: number;
  /** The operation sent, transformed over what arrived since. */
  readonly outstanding: TextOperation;
}

/** One operation in flight and more of ours composed behind it. */
export interface AwaitingWithBuffer {
  /** Discriminant. */
  readonly kind: "awaitingWithBuffer";
  /** Operations of the pad's history applied locally. */
  readonly revision: number;
  /** The operation sent, transformed over what arrived since. */
  readonly outstanding: TextOperation;
  /** Our later operations, composed, to send after the acknowledgement. */
  readonly buffer: TextOperation;
}

/** Where the client stands with the server. */
export type ClientState = Synchronized | AwaitingConfirm | AwaitingWithBuffer;

/** An `Edit` for the socket layer to send. */
export interface EditToSend {
  /** The revision the operation is based on. */
  readonly revision: number;
  /** The operation. */
  readonly operation: TextOperation;
}

/** The result of an event: the next state, and an edit to send if any. */
export interface Transition {
  /** The next state. */
  readonly state: ClientState;
  /** An edit to send now. */
  readonly send?: EditToSend;
}

/**
 * The state of a client that has applied `revision` operations and has
 * nothing in flight.
 *
 * @param revision The number of history operations applied.
 * @returns A synchronized state.
 *
 * @example
 * ```ts
 * import { synchronized } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(synchronized(3), { kind: "synchronized", revision: 3 });
 * ```
 */
export function synchronized(revision: number): Synchronized {
  return { kind: "synchronized", revision };
}

/**
 * Our own operation, already applied to the local text.
 *
 * @param state The current state.
 * @param operation The operation, based on the local text.
 * @returns The next state, and the edit to send when nothing was in flight.
 *
 * @example
 * ```ts
 * import { applyClient, synchronized, TextOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const { state, send } = applyClient(synchronized(0), TextOperation.fromJSON(["hi"]));
 * assert.equal(state.kind, "awaitingConfirm");
 * assert.equal(send?.revision, 0);
 * ```
 */
export function applyClient(
  state: ClientState,
  operation: TextOperation,
): Transition {
  switch (state.kind) {
    case "synchronized":
      return {
        state: {
          kind: "awaitingConfirm",
          revision: state.revision,
          outstanding: operation,
        },
        send: { revision: state.revision, operation },
      };
    case "awaitingConfirm":
      return {
        state: {
          kind: "awaitingWithBuffer",
          revision: state.revision,
          outstanding: state.outstanding,
          buffer: operation,
        },
      };
    case "awaitingWithBuffer":
      return {
        state: { ...state, buffer: state.buffer.compose(operation) },
      };
  }
}

/**
 * Someone else's operation arrived from the server.
 *
 * ```text
 *              /\
 *  outstanding /  \ operation
 *             /    \
 *             \    /
 *  operation'  \  / outstanding'
 *               \/
 * ```
 *
 * Our pending operations are transformed with ours FIRST, as the server does
 * (`incoming.transform(history)`), so both sides order a same-position
 * insert the same way.
 *
 * @param state The current state.
 * @param operation The operation from the server's history.
 * @returns The next state, and the operation to apply to the local text.
 *
 * @example
 * ```ts
 * import { applyClient, applyServer, synchronized, TextOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const mine = applyClient(synchronized(1), TextOperation.fromJSON([5, "B"])).state;
 * const { apply } = applyServer(mine, TextOperation.fromJSON([5, "A"]));
 * assert.equal(apply.apply("helloB"), "helloBA");
 * ```
 */
export function applyServer(
  state: ClientState,
  operation: TextOperation,
): { state: ClientState; apply: TextOperation } {
  const revision = state.revision + 1;
  switch (state.kind) {
    case "synchronized":
      return { state: synchronized(revision), apply: operation };
    case "awaitingConfirm": {
      const [outstanding, apply] = state.outstanding.transform(operation);
      return {
        state: { kind: "awaitingConfirm", revision, outstanding },
        apply,
      };
    }
    case "awaitingWithBuffer": {
      const [outstanding, afterOutstanding] = state.outstanding.transform(
        operation,
      );
      const [buffer, apply] = state.buffer.transform(afterOutstanding);
      return {
        state: { kind: "awaitingWithBuffer", revision, outstanding, buffer },
        apply,
      };
    }
  }
}

/**
 * The server acknowledged our outstanding operation.
 *
 * @param state The current state; must have an operation in flight.
 * @returns The next state, and the buffer to send if there was one.
 * @throws {TypeError} If nothing was in flight: the server echoed an edit we
 * did not send.
 *
 * @example
 * ```ts
 * import { applyClient, serverAck, synchronized, TextOperation } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const sent = applyClient(synchronized(0), TextOperation.fromJSON(["hi"])).state;
 * assert.deepEqual(serverAck(sent).state, synchronized(1));
 * ```
 */
export function serverAck(state: ClientState): Transition {
  const revision = state.revision + 1;
  switch (state.kind) {
    case "synchronized":
      throw new TypeError(
        `Cannot take an acknowledgement as no edit is in flight: current revision is ${state.revision}`,
      );
    case "awaitingConfirm":
      return { state: synchronized(revision) };
    case "awaitingWithBuffer":
      return {
        state: {
          kind: "awaitingConfirm",
          revision,
          outstanding: state.buffer,
        },
        send: { revision, operation: state.buffer },
      };
  }
}

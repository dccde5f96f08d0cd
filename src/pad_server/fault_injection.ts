/**
 * The fault-injection half of `PadServer`: slow frames, dropped,
 * stalled or late edits, late departures, cut connections, slow sockets,
 * raw frames, and the counts a test checks a client's frugality by.
 *
 * @module
 */

import { checkDelay, stateOf } from "./_fault_queue.ts";
import type {
  CloseNextConnectOptions,
  DelayOptions,
  DropNextEditOptions,
  StallNextEditOptions,
} from "./faults.ts";

/**
 * Faults a `PadServer` injects on request. Each `…Next…` fault is
 * spent by one event; several calls queue up.
 *
 * @example Delay an acknowledgement
 * ```ts
 * import { startPadServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * await using server = await startPadServer();
 * server.delayNextAck({ ms: 50 });
 * const socket = new WebSocket(`${server.url}/api/socket/a`);
 * socket.onmessage = () => {
 *   socket.onmessage = () => socket.close();
 *   socket.send('{"Edit":{"revision":0,"operation":["x"]}}');
 * };
 * await new Promise((resolve) => socket.onclose = resolve);
 * assert.equal(server.text("a"), "x");
 * ```
 */
export abstract class FaultInjector {
  /**
   * Hold back every frame the server writes from now on by `ms`
   * milliseconds, keeping their order (a hang-up waits its turn too).
   * `0` stops delaying new frames.
   *
   * @param ms The delay in milliseconds.
   * @throws {RangeError} If `ms` is negative or not finite.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const server = await startPadServer();
   * server.setFrameDelay(50);
   * const started = performance.now();
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * await new Promise((resolve) => socket.onmessage = resolve);
   * assert.ok(performance.now() - started >= 45);
   * socket.close();
   * await new Promise((resolve) => socket.onclose = resolve);
   * await server.close();
   * ```
   */
  setFrameDelay(ms: number): void {
    checkDelay(ms, "delay frames");
    stateOf(this).faults.frameDelayMs = ms;
  }

  /**
   * Make the next `Edit` received (on `options.pad`, or any pad) close its
   * sender's socket with no message. With `"before-apply"` the edit is not
   * applied; with `"after-apply"` it is applied, appended to the history and
   * sent to the pad's other connections, and the sender's socket is closed
   * before it receives its acknowledgement. Either way the others then
   * receive `UserInfo` with `info: null` for the sender.
   *
   * @param options Which pad, and when to drop.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const server = await startPadServer();
   * server.dropNextEdit({ when: "after-apply" });
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * socket.onmessage = () => socket.send('{"Edit":{"revision":0,"operation":["x"]}}');
   * await new Promise((resolve) => socket.onclose = resolve);
   * assert.equal(server.text("a"), "x");
   * await server.close();
   * ```
   */
  dropNextEdit(options: DropNextEditOptions): void {
    stateOf(this).faults.editDrops.push(options);
  }

  /**
   * Make the connection that sends the next `Edit` (on `options.pad`, or any
   * pad) stop reading its client from that frame on, as a server whose task
   * hangs would: the edit is never applied and never acknowledged, the
   * socket stays open and keeps receiving broadcasts. When the client
   * closes it, its departure is announced as usual.
   *
   * @param options Which pad.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * await using server = await startPadServer();
   * server.stallNextEdit();
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * socket.onmessage = () => {
   *   socket.send('{"Edit":{"revision":0,"operation":["x"]}}');
   *   setTimeout(() => socket.close(), 30);
   * };
   * await new Promise((resolve) => socket.onclose = resolve);
   * assert.equal(server.text("a"), "");
   * ```
   */
  stallNextEdit(options: StallNextEditOptions = {}): void {
    stateOf(this).faults.editStalls.push(options);
  }

  /**
   * Make the connection that sends the next `Edit` (on `options.pad`, or any
   * pad) take `options.ms` over it, as a server task busy elsewhere would:
   * it applies the edit only then, and reads nothing else meanwhile, its
   * client's close included; so a client that gave up on the edit and left
   * sees it land, and its departure announced, only after the delay.
   *
   * @param options Which pad, and how long.
   * @throws {RangeError} If `options.ms` is negative or not finite.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * await using server = await startPadServer();
   * server.slowNextEdit({ pad: "a", ms: 100 });
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * socket.onmessage = () => {
   *   socket.send('{"Edit":{"revision":0,"operation":["x"]}}');
   *   socket.close();
   * };
   * await new Promise((resolve) => socket.onclose = resolve);
   * assert.equal(server.text("a"), "");
   * await new Promise((resolve) => setTimeout(resolve, 300));
   * assert.equal(server.text("a"), "x");
   * ```
   */
  slowNextEdit(options: DelayOptions): void {
    checkDelay(options.ms, "slow an edit down");
    stateOf(this).faults.editSlows.push(options);
  }

  /**
   * Apply the next `Edit` (on `options.pad`, or any pad) and send it to the
   * other connections at once, but hold its acknowledgement to the sender
   * (its `History` echo) back `options.ms`, with every later frame to that
   * sender behind it, as a slow network would.
   *
   * @param options Which pad, and how long.
   * @throws {RangeError} If `options.ms` is negative or not finite.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   *
   * await using server = await startPadServer();
   * server.delayNextAck({ pad: "a", ms: 5000 });
   * ```
   */
  delayNextAck(options: DelayOptions): void {
    checkDelay(options.ms, "delay an acknowledgement");
    stateOf(this).faults.ackDelays.push(options);
  }

  /**
   * Hold the `History` of the next `Edit` (on `options.pad`, or any pad)
   * back `options.ms` from the pad's other connections, while metadata
   * (a departure included) still reaches them: the real server sends
   * history and metadata by separate paths and may deliver `UserInfo` with
   * `info: null` before the history holding that user's last edit.
   *
   * @param options Which pad, and how long.
   * @throws {RangeError} If `options.ms` is negative or not finite.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   *
   * await using server = await startPadServer();
   * server.delayNextHistory({ ms: 100 });
   * ```
   */
  delayNextHistory(options: DelayOptions): void {
    checkDelay(options.ms, "delay a history");
    stateOf(this).faults.historyDelays.push(options);
  }

  /**
   * Announce the next departure (on `options.pad`, or any pad) `options.ms`
   * late: until then the departed user is still replayed to new
   * connections, as while the real server has not finished with the old
   * connection.
   *
   * @param options Which pad, and how long.
   * @throws {RangeError} If `options.ms` is negative or not finite.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   *
   * await using server = await startPadServer();
   * server.delayNextDeparture({ pad: "a", ms: 200 });
   * ```
   */
  delayNextDeparture(options: DelayOptions): void {
    checkDelay(options.ms, "delay a departure");
    stateOf(this).faults.departureDelays.push(options);
  }

  /**
   * Make the next connection (to `options.pad`, or any pad) receive its
   * `Identity` and then be closed where its `History` would come. The pad's
   * other connections receive `UserInfo` with `info: null` for it.
   *
   * @param options Which pad.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const server = await startPadServer({ pads: { a: { text: "hi" } } });
   * server.closeNextConnectMidHistory({ pad: "a" });
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * const frames: string[] = [];
   * socket.onmessage = (event) => frames.push(event.data);
   * await new Promise((resolve) => socket.onclose = resolve);
   * assert.deepEqual(frames, ['{"Identity":0}']);
   * await server.close();
   * ```
   */
  closeNextConnectMidHistory(options: CloseNextConnectOptions = {}): void {
    stateOf(this).faults.connectCuts.push(options);
  }

  /**
   * Make one connection's socket drain slowly: it forwards at most one
   * metadata message (`Language`, `UserInfo`, `UserCursor`) per `ms`
   * milliseconds, so a burst of more than 16 drops it, as the real server
   * drops a connection that falls more than 16 behind its metadata queue.
   *
   * @param padId The pad id.
   * @param userId The connection's user id (its `Identity`).
   * @param ms Per metadata message, in milliseconds; `0` drains at once.
   * @returns Whether such a connection is open.
   * @throws {RangeError} If `ms` is negative or not finite.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * await using server = await startPadServer();
   * assert.equal(server.setDrainDelay("a", 0, 100), false);
   * ```
   */
  setDrainDelay(padId: string, userId: number, ms: number): boolean {
    checkDelay(ms, "slow a socket down");
    for (
      const connection of stateOf(this).rooms.get(padId)?.connections ?? []
    ) {
      if (connection.userId === userId) {
        connection.drainDelayMs = ms;
        return true;
      }
    }
    return false;
  }

  /**
   * How many metadata messages (`SetLanguage`, `ClientInfo`, `CursorData`)
   * the server has handled from one connection, open or closed.
   *
   * @param padId The pad id.
   * @param userId The connection's user id (its `Identity`).
   * @returns The count; `0` for a connection never seen.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * await using server = await startPadServer();
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * socket.onmessage = (event) => {
   *   if (event.data === '{"Identity":0}') {
   *     socket.send('{"CursorData":{"cursors":[0],"selections":[]}}');
   *   } else socket.close();
   * };
   * await new Promise((resolve) => socket.onclose = resolve);
   * assert.equal(server.metadataFrom("a", 0), 1);
   * ```
   */
  metadataFrom(padId: string, userId: number): number {
    return stateOf(this).rooms.get(padId)?.counts.get(userId)?.metadata ?? 0;
  }

  /**
   * Write `frame`, as it is, to every open connection of a pad: a way to
   * test a client against frames the real server never sends.
   *
   * @param padId The pad id; nothing is sent if no socket is open on it.
   * @param frame The text frame.
   *
   * @example
   * ```ts
   * import { startPadServer } from "@rustpad-mcp/server/testing";
   * import assert from "node:assert/strict";
   *
   * const server = await startPadServer();
   * const socket = new WebSocket(`${server.url}/api/socket/a`);
   * const frames: string[] = [];
   * socket.onmessage = (event) => {
   *   frames.push(event.data);
   *   if (frames.length === 1) server.sendRaw("a", "{oops");
   *   else socket.close();
   * };
   * await new Promise((resolve) => socket.onclose = resolve);
   * assert.deepEqual(frames, ['{"Identity":0}', "{oops"]);
   * await server.close();
   * ```
   */
  sendRaw(padId: string, frame: string): void {
    for (
      const connection of stateOf(this).rooms.get(padId)?.connections ?? []
    ) {
      connection.outbox.send(frame);
    }
  }
}

/**
 * Servers that attack a Rustpad client, for tests of its bounds: each
 * answers the WebSocket of one pad in a way the real server never would,
 * and passes every other request, byte for byte, to an ordinary
 * {@linkcode PadServer}, so that a test can check that the other pads keep
 * working meanwhile. The hostile connection never echoes anything back.
 *
 * | mode               | what the hostile pad's socket gets                                 |
 * | ------------------ | ------------------------------------------------------------------ |
 * | `"huge-history"`   | `Identity`, then one `History` of 1,000,000 operations (~25 MB)      |
 * | `"huge-frame"`     | `Identity`, then one text frame of 100 MiB                          |
 * | `"dribble"`        | its upgrade answer and frames, one byte a second                    |
 * | `"userinfo-flood"` | `Identity`, then `UserInfo` of ever new users, as fast as it reads |
 *
 * @module
 */

import { dribble, flood, hugeFrame, hugeHistory } from "./_attacks.ts";
import {
  readHead,
  textFrame,
  untilClientCloses,
  upgradeResponse,
  writeAll,
} from "./_raw_websocket.ts";
import { type PadServer, startPadServer } from "../pad_server/pad_server.ts";

/** How a {@linkcode HostileServer} attacks. */
export type HostileMode =
  | "huge-history"
  | "huge-frame"
  | "dribble"
  | "userinfo-flood";

/** How to start a {@linkcode HostileServer}. */
export interface HostileServerOptions {
  /** The attack. */
  mode: HostileMode;
  /**
   * The pad whose socket is hostile; every other request goes to the
   * ordinary pad server.
   *
   * @default {"hostile"}
   */
  pad?: string;
  /**
   * The ordinary pad server behind it; one is started (and closed with it)
   * if absent.
   */
  backend?: PadServer;
  /**
   * Operations in the `"huge-history"` History.
   *
   * @default {1000000}
   */
  operations?: number;
  /**
   * Bytes of the `"huge-frame"` frame.
   *
   * @default {104857600}
   */
  frameBytes?: number;
  /**
   * Milliseconds between two bytes in `"dribble"` mode.
   *
   * @default {1000}
   */
  byteIntervalMs?: number;
}

/**
 * A running hostile server; start one with {@linkcode startHostileServer}.
 *
 * @example A client gives up on a pad that dribbles
 * ```ts
 * import { startHostileServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * await using server = await startHostileServer({ mode: "dribble" });
 * const socket = new WebSocket(`${server.url}/api/socket/hostile`);
 * const opened = await Promise.race([
 *   new Promise((resolve) => socket.onopen = () => resolve(true)),
 *   new Promise((resolve) => setTimeout(() => resolve(false), 200)),
 * ]);
 * assert.equal(opened, false);
 * assert.equal(server.attacks, 1);
 * ```
 */
export class HostileServer implements AsyncDisposable {
  /** The base URL, such as `"http://127.0.0.1:40123"`. */
  readonly url: string;
  /** The port listened on. */
  readonly port: number;
  /** The ordinary pad server behind it. */
  readonly backend: PadServer;
  /** Hostile sockets opened so far. */
  attacks = 0;

  readonly #options: Required<Omit<HostileServerOptions, "backend">>;
  /** The `"huge-history"` frame, built once before anyone connects. */
  #history: Uint8Array | undefined;
  readonly #ownBackend: boolean;
  readonly #listener: Deno.TcpListener;
  readonly #conns = new Set<Deno.Conn>();
  readonly #tasks = new Set<Promise<void>>();
  readonly #stop = new AbortController();
  #accepting: Promise<void>;
  #closing: Promise<void> | undefined;

  /** Use {@linkcode startHostileServer}. */
  private constructor(options: HostileServerOptions, backend: PadServer) {
    this.#options = {
      mode: options.mode,
      pad: options.pad ?? "hostile",
      operations: options.operations ?? 1_000_000,
      frameBytes: options.frameBytes ?? 100 * 1024 * 1024,
      byteIntervalMs: options.byteIntervalMs ?? 1000,
    };
    this.backend = backend;
    this.#ownBackend = options.backend === undefined;
    if (this.#options.mode === "huge-history") {
      this.#history = textFrame(hugeHistory(this.#options.operations));
    }
    this.#listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.port = this.#listener.addr.port;
    this.url = `http://127.0.0.1:${this.port}`;
    this.#accepting = this.#accept();
  }

  /**
   * Start a hostile server (use {@linkcode startHostileServer}).
   *
   * @param options The attack, and where the other requests go.
   * @returns The running server.
   *
   * @example
   * ```ts
   * import { HostileServer } from "@rustpad-mcp/server/testing";
   *
   * const server = await HostileServer.start({ mode: "huge-frame" });
   * await server.close();
   * ```
   */
  static async start(options: HostileServerOptions): Promise<HostileServer> {
    return new HostileServer(
      options,
      options.backend ?? await startPadServer(),
    );
  }

  /**
   * Stop listening, cut every connection, and wait until nothing runs;
   * closes the backend if it started it.
   *
   * @returns A promise that resolves once nothing is left running.
   *
   * @example
   * ```ts
   * import { startHostileServer } from "@rustpad-mcp/server/testing";
   *
   * const server = await startHostileServer({ mode: "userinfo-flood" });
   * await server.close();
   * ```
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#stop.abort();
      this.#listener.close();
      await this.#accepting;
      for (const conn of this.#conns) closeQuietly(conn);
      await Promise.all(this.#tasks);
      if (this.#ownBackend) await this.backend.close();
    })();
    return this.#closing;
  }

  /**
   * {@linkcode HostileServer.close}, for `await using`.
   *
   * @returns A promise that resolves once nothing is left running.
   *
   * @example
   * ```ts
   * import { startHostileServer } from "@rustpad-mcp/server/testing";
   *
   * await using _server = await startHostileServer({ mode: "dribble" });
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #accept(): Promise<void> {
    try {
      for await (const conn of this.#listener) {
        this.#conns.add(conn);
        const task = this.#serve(conn).catch(() => {}).finally(() => {
          closeQuietly(conn);
          this.#conns.delete(conn);
          this.#tasks.delete(task);
        });
        this.#tasks.add(task);
      }
    } catch {
      // The listener was closed.
    }
  }

  async #serve(conn: Deno.Conn): Promise<void> {
    const head = await readHead(conn);
    if (head === undefined) return;
    const key = head.headers.get("sec-websocket-key");
    if (
      head.path !== `/api/socket/${encodeURIComponent(this.#options.pad)}` ||
      key === undefined
    ) {
      return await this.#proxy(conn, head.bytes);
    }
    this.attacks++;
    const closed = untilClientCloses(conn);
    const attack = this.#attack(conn, await upgradeResponse(key));
    await Promise.race([closed, attack.catch(() => {})]);
  }

  async #proxy(conn: Deno.Conn, head: Uint8Array): Promise<void> {
    const upstream = await Deno.connect({
      hostname: "127.0.0.1",
      port: this.backend.port,
    });
    this.#conns.add(upstream);
    try {
      await writeAll(upstream, head);
      await Promise.all([
        conn.readable.pipeTo(upstream.writable).catch(() => {}),
        upstream.readable.pipeTo(conn.writable).catch(() => {}),
      ]);
    } finally {
      closeQuietly(upstream);
      this.#conns.delete(upstream);
    }
  }

  async #attack(conn: Deno.Conn, upgrade: Uint8Array): Promise<void> {
    const { mode } = this.#options;
    if (mode === "dribble") {
      return await dribble(
        conn,
        upgrade,
        this.#options.byteIntervalMs,
        this.#stop.signal,
      );
    }
    await writeAll(conn, upgrade);
    await writeAll(conn, textFrame('{"Identity":0}'));
    if (mode === "huge-history") {
      await writeAll(conn, this.#history!);
    } else if (mode === "huge-frame") {
      await hugeFrame(conn, this.#options.frameBytes, this.#stop.signal);
    } else {
      await flood(conn, this.#stop.signal);
    }
    // Then silence: nothing is ever echoed.
    await new Promise<void>((resolve) =>
      this.#stop.signal.addEventListener("abort", () => resolve())
    );
  }
}

/**
 * Start a hostile server on 127.0.0.1, on a free port.
 *
 * @param options The attack, and where the other requests go.
 * @returns The running server; {@linkcode HostileServer.close} it when done.
 *
 * @example Other pads are served by the ordinary pad server behind it
 * ```ts
 * import { startHostileServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * await using server = await startHostileServer({ mode: "huge-history" });
 * const response = await fetch(`${server.url}/api/text/other`);
 * assert.equal(await response.text(), "");
 * ```
 */
export function startHostileServer(
  options: HostileServerOptions,
): Promise<HostileServer> {
  return HostileServer.start(options);
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

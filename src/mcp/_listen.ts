// `subscriptions/listen` in the 2026 era: the SDK's serving entries own the
// stream (the acknowledgement, the filter, stamping each notification with
// its subscription); this module watches the pads a listen request names,
// so that their changes reach the entry as `resources/updated` events. A
// listener holds one of its identity's subscriptions and waits per pad (at
// most 20 together, as a 2025 session); a pad several streams listen to is
// watched once.

// @ts-types="@modelcontextprotocol/server"
import {
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type Transport,
} from "@modelcontextprotocol/server";
import type { LivePads } from "../backend/live_pads.ts";
import { SessionHolds } from "../tools/mod.ts";
import { type PadWatch, watchPad } from "./_pad_watch.ts";
import { padIdOfUri, padUri } from "./_resources.ts";

/** A `subscriptions/listen` request: its id and the pads it names. */
export interface ListenRequest {
  readonly id: string | number;
  readonly padIds: readonly string[];
}

/**
 * The listen request `message` is, if it is one.
 *
 * @throws {ProtocolError} `InvalidParams` if it names a resource that is not
 * a pad.
 */
export function listenRequest(message: unknown): ListenRequest | undefined {
  const request = message as {
    method?: unknown;
    id?: unknown;
    params?: { notifications?: { resourceSubscriptions?: unknown } };
  } | null;
  if (request?.method !== "subscriptions/listen") return undefined;
  const { id } = request;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  const uris = request.params?.notifications?.resourceSubscriptions;
  const padIds = Array.isArray(uris)
    ? uris.map((uri) => padIdOfUri(String(uri)))
    : [];
  return { id, padIds: [...new Set(padIds)] };
}

/** The JSON-RPC error answering listen request `id` that `error` refused. */
export function listenRefusal(
  id: string | number | null,
  error: unknown,
): JSONRPCMessage {
  const code = error instanceof ProtocolError
    ? error.code
    : ProtocolErrorCode.InvalidParams;
  return {
    jsonrpc: "2.0",
    id,
    error: { code, message: (error as Error).message },
  } as JSONRPCMessage;
}

interface Shared {
  count: number;
  watch: Promise<PadWatch | undefined>;
}

/** The pads open listen streams hear of, watched once each. */
export class PadListeners {
  readonly #live: LivePads;
  readonly #changed: (uri: string) => void;
  readonly #shared = new Map<string, Shared>();
  /** The pad watches count against each listener's holds, not these. */
  readonly #unbounded = new SessionHolds(Number.MAX_SAFE_INTEGER);

  /** Report each change of a listened pad by its URI to `changed`. */
  constructor(live: LivePads, changed: (uri: string) => void) {
    this.#live = live;
    this.#changed = changed;
  }

  /**
   * Listen to `padIds` on behalf of a caller with `holds`; returns the end
   * of the listening.
   *
   * @throws {RangeError} If `holds` cannot take one more per pad; nothing
   * is held then.
   */
  open(holds: SessionHolds, padIds: readonly string[]): () => void {
    const releases: (() => void)[] = [];
    try {
      for (const id of padIds) {
        releases.push(holds.take(`listen to pad "${id}"`));
      }
    } catch (error) {
      for (const release of releases) release();
      throw error;
    }
    for (const id of padIds) this.#acquire(id);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      for (const release of releases) release();
      for (const id of padIds) this.#release(id);
    };
  }

  #acquire(id: string): void {
    const shared = this.#shared.get(id);
    if (shared !== undefined) {
      shared.count++;
      return;
    }
    const uri = padUri(id);
    this.#shared.set(id, {
      count: 1,
      // A pad that cannot be opened is heard of when someone opens it.
      watch: watchPad(this.#live, this.#unbounded, id, () => this.#changed(uri))
        .catch(() => undefined),
    });
  }

  #release(id: string): void {
    const shared = this.#shared.get(id);
    if (shared === undefined || --shared.count > 0) return;
    this.#shared.delete(id);
    void shared.watch.then((watch) => watch?.stop());
  }
}

/**
 * On a connection (stdio, in memory) whose entry serves the listen
 * streams itself: watch the pads each listen request on `wire` names until
 * the client cancels it or the connection ends, and refuse one that names
 * a resource that is not a pad or more pads than `holds` has room for.
 * Only in the 2026 era: while `modern` says so, or for a message carrying
 * the 2026 `_meta` envelope. Call after
 * the entry set its message handler.
 */
export function routeListens(
  wire: Transport,
  listeners: PadListeners,
  holds: SessionHolds,
  modern: () => boolean,
): void {
  const open = new Map<string | number, () => void>();
  const deliver = wire.onmessage;
  wire.onmessage = (message, extra) => {
    // The first modern message may be this one: the entry picks the era
    // only once it processes it.
    if (modern() || carriesEnvelope(message)) {
      const cancelled = cancelledRequest(message);
      if (cancelled !== undefined) {
        open.get(cancelled)?.();
        open.delete(cancelled);
      }
      try {
        const listen = listenRequest(message);
        if (listen !== undefined) {
          open.get(listen.id)?.();
          open.set(listen.id, listeners.open(holds, listen.padIds));
        }
      } catch (error) {
        const { id } = message as { id: string | number };
        void wire.send(listenRefusal(id, error)).catch(() => {});
        return;
      }
    }
    deliver?.(message, extra);
  };
  const entryClose = wire.onclose;
  wire.onclose = () => {
    entryClose?.();
    for (const stop of open.values()) stop();
    open.clear();
  };
}

/** Whether `message` carries the 2026-era per-request `_meta` envelope. */
function carriesEnvelope(message: JSONRPCMessage): boolean {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } })
    .params?._meta;
  return typeof meta?.[PROTOCOL_VERSION_META_KEY] === "string";
}

/** The request id a `notifications/cancelled` message names. */
function cancelledRequest(
  message: JSONRPCMessage,
): string | number | undefined {
  if (!("method" in message) || message.method !== "notifications/cancelled") {
    return undefined;
  }
  const id = (message.params as { requestId?: unknown } | undefined)
    ?.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

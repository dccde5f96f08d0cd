// The live MCP sessions of the HTTP server: one SDK Streamable HTTP
// transport and one MCP server each, all on the process's one backend (so
// the sessions of one identity share one pad connection per pad). Each
// session is bound to the identity whose token made it: to any other, its
// id is unknown. Bounded in number and in idle time, so memory stays
// bounded whatever clients do.

// @ts-types="@modelcontextprotocol/server"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import type { Backend } from "../backend/backend.ts";
import { createServer, type RustpadMcpServer } from "./server.ts";

/** One MCP session. */
export interface HttpSession {
  /** The identity whose token made it; only that identity may use it. */
  readonly identity: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: RustpadMcpServer;
  /** Requests (and SSE streams) still open; never idle while above 0. */
  open: number;
  /** When the last request ended, by the table's clock. */
  lastActive: number;
  /** The ids of the requests being answered. */
  readonly ids: RequestIds;
}

/** The JSON-RPC request ids a session is answering, so none is reused. */
export class RequestIds {
  readonly #open = new Set<string | number>();

  /**
   * Claim the ids of the requests in `body` (a message or a batch); returns
   * their release, or why one cannot be served.
   */
  claim(body: unknown): (() => void) | string {
    const ids: (string | number)[] = [];
    for (const message of Array.isArray(body) ? body : [body]) {
      const { id, method } = (message ?? {}) as {
        id?: unknown;
        method?: unknown;
      };
      if (typeof method !== "string") continue;
      if (typeof id !== "string" && typeof id !== "number") continue;
      if (this.#open.has(id) || ids.includes(id)) {
        return `Cannot serve request id ${
          JSON.stringify(id)
        } as a request with the same id is still being answered in this session: give each request an id of its own`;
      }
      ids.push(id);
    }
    for (const id of ids) this.#open.add(id);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const id of ids) this.#open.delete(id);
    };
  }
}

/** Limits of {@linkcode SessionTable}. */
export interface SessionTableOptions {
  /** Close a session after this long without a request. */
  idleMs: number;
  /** Refuse new sessions while this many are live. */
  maxSessions: number;
  /**
   * How many identities share `maxSessions`: each may hold its fair share,
   * `floor(maxSessions / identities)` (at least one).
   */
  identities?: number;
  /** The largest request body the transport reads. */
  maxMessageBytes: number;
  now?: () => number;
}

/** The live sessions by `Mcp-Session-Id`. */
export class SessionTable {
  readonly #backend: Backend;
  readonly #options: SessionTableOptions;
  readonly #now: () => number;
  readonly #sessions = new Map<string, HttpSession>();
  /** Sessions made for an initialize request that has no id yet. */
  #starting = 0;
  /** Live sessions per identity, those still initializing included. */
  readonly #perIdentity = new Map<string, number>();
  readonly #sweeper: ReturnType<typeof setInterval>;

  constructor(backend: Backend, options: SessionTableOptions) {
    this.#backend = backend;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    const period = Math.max(50, Math.min(options.idleMs / 4, 30_000));
    this.#sweeper = setInterval(() => this.#sweep(), period);
    Deno.unrefTimer(this.#sweeper as unknown as number);
  }

  /** Live sessions, those still initializing included. */
  get size(): number {
    return this.#sessions.size + this.#starting;
  }

  /** Whether a new session would go over the cap. */
  get full(): boolean {
    return this.size >= this.#options.maxSessions;
  }

  /**
   * Why a new session of `identity` is refused (the server's cap, or the
   * identity's fair share of it), or `undefined` if there is room.
   */
  refusal(identity: string): string | undefined {
    const identities = Math.max(1, this.#options.identities ?? 1);
    const share = Math.max(
      1,
      Math.floor(this.#options.maxSessions / identities),
    );
    if (this.full) {
      return `Cannot start a session as the server has its maximum of ${this.size} live sessions (RUSTPAD_MCP_MAX_SESSIONS): retry later`;
    }
    if (identities > 1 && (this.#perIdentity.get(identity) ?? 0) >= share) {
      return `Cannot start a session as this identity has its fair share of ${share} live sessions (RUSTPAD_MCP_MAX_SESSIONS shared by ${identities} identities): end one (DELETE) or retry later`;
    }
    return undefined;
  }

  /**
   * The session with this id, if it is live and `identity`'s: another
   * identity cannot tell it from an unknown one.
   */
  get(id: string, identity: string): HttpSession | undefined {
    const session = this.#sessions.get(id);
    return session?.identity === identity ? session : undefined;
  }

  /**
   * A fresh session for an initialize request. It enters the table when the
   * transport assigns its id; `settle` (after the request is handled) drops
   * it if that never happened.
   */
  async start(
    identity: string,
  ): Promise<{ session: HttpSession; settle: () => void }> {
    this.#starting++;
    this.#count(identity, 1);
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      this.#starting--;
      if (session.transport.sessionId === undefined) {
        this.#count(identity, -1);
        void session.server.close();
      }
    };
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      maxRequestBodySize: this.#options.maxMessageBytes,
      onsessioninitialized: (id) => {
        this.#sessions.set(id, session);
      },
    });
    const server = createServer(this.#backend.config, {
      backend: this.#backend,
      identity,
    });
    const session: HttpSession = {
      identity,
      transport,
      server,
      open: 0,
      lastActive: this.#now(),
      ids: new RequestIds(),
    };
    // Closed by DELETE, expiry, shutdown or the transport itself: forget it.
    void server.closed.then(() => {
      const id = transport.sessionId;
      if (id !== undefined && this.#sessions.get(id) === session) {
        this.#sessions.delete(id);
        this.#count(identity, -1);
      }
    });
    await server.connectSession(transport);
    return { session, settle };
  }

  /** Mark a request on `session` as started; returns its end. */
  enter(session: HttpSession): () => void {
    session.open++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      session.open--;
      session.lastActive = this.#now();
    };
  }

  /** Close every session and stop sweeping. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    this.#perIdentity.clear();
    await Promise.allSettled(sessions.map((session) => session.server.close()));
  }

  #sweep(): void {
    const cutoff = this.#now() - this.#options.idleMs;
    for (const [id, session] of this.#sessions) {
      if (session.open === 0 && session.lastActive <= cutoff) {
        this.#sessions.delete(id);
        this.#count(session.identity, -1);
        void session.server.close().catch(() => {});
      }
    }
  }

  #count(identity: string, change: number): void {
    const count = (this.#perIdentity.get(identity) ?? 0) + change;
    if (count > 0) this.#perIdentity.set(identity, count);
    else this.#perIdentity.delete(identity);
  }
}

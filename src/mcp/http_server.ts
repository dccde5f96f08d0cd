/**
 * MCP over Streamable HTTP for a team: `POST`/`GET`/`DELETE /mcp` with
 * `Mcp-Session-Id` sessions (SSE for elicitation, progress and
 * notifications), `GET /healthz`, bearer-token auth, Host and Origin
 * allow-lists against DNS rebinding, a cap on sessions, idle expiry and a
 * graceful drain. Every session runs on one shared {@linkcode Backend}, so
 * many agents in one pad are one connection to Rustpad.
 *
 * Nothing a client sends can exhaust it: connections are capped, a request
 * must arrive whole (head and body) within a deadline, idle keep-alive
 * connections are closed, bodies are capped in size and in total, and an
 * accept error such as EMFILE is logged and survived.
 *
 * @module
 */

import {
  BearerCheck,
  checkIdentities,
  jsonError,
  OriginCheck,
} from "./_http_guard.ts";
import { HttpListener, listenError } from "../http/mod.ts";
import { type HttpSession, SessionTable } from "./_http_sessions.ts";
import { ModernEndpoint } from "./_http_modern.ts";
import { AnswerBudget } from "./_answer_budget.ts";
import {
  accessLine,
  CallsInFlight,
  health,
  onlyAnswers,
  readWhole,
  shuttingDown,
  trackBody,
} from "./_http_util.ts";
import type { Backend } from "../backend/backend.ts";
import type { HttpServerOptions } from "./http_options.ts";
import { isLoopback, MIN_TOKEN_LENGTH } from "../config/listen.ts";

/** The longest request head (request line and header fields). */
const MAX_HEAD_BYTES = 32_768;
/** The default of {@linkcode HttpServerOptions.maxMessageBytes}: 8 MiB. */
const DEFAULT_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** How many largest bodies one request may answer, a batch included. */
const ANSWERS_PER_BODY = 4;
/** How many largest bodies may be read at once. */
const BODIES_IN_FLIGHT = 4;
/** How long responses still streaming at shutdown get to end. */
const CLOSE_GRACE_MS = 1000;

/** A running HTTP server from {@linkcode serveHttp}. */
export interface HttpServer extends AsyncDisposable {
  /** The MCP endpoint, such as `http://127.0.0.1:8080/mcp`. */
  readonly url: URL;
  /** Live sessions. */
  readonly sessionCount: number;
  /** Open TCP connections. */
  readonly connectionCount: number;
  /**
   * Drain: refuse new requests, let calls in flight finish (up to
   * `drainMs`), close every session, stop listening. Does not close the
   * backend. Idempotent.
   */
  shutdown(): Promise<void>;
  /** Settles once the server has stopped listening. */
  readonly finished: Promise<void>;
}

/**
 * Serve MCP over Streamable HTTP on `backend`.
 *
 * @param backend The shared state; the caller closes it after
 * {@linkcode HttpServer.shutdown}.
 * @param options Address, auth, allow-lists and limits.
 * @returns The running server.
 * @throws {RangeError} If the address `hostname` resolves to is not
 * loopback and there is no token, if the token is shorter than 32
 * characters, or if `hostname` does not resolve or is not this machine's.
 * @throws {Deno.errors.AddrInUse} If the port is taken.
 *
 * @example Serve on a free loopback port
 * ```ts
 * import { createBackend, loadConfig, serveHttp } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * await using backend = createBackend(loadConfig({}));
 * await using server = serveHttp(backend, { log: () => {} });
 * const health = await fetch(new URL("/healthz", server.url));
 * assert.equal(health.status, 200);
 * await health.body?.cancel();
 * ```
 */
export function serveHttp(
  backend: Backend,
  options: HttpServerOptions = {},
): HttpServer {
  const hostname = options.hostname ?? "127.0.0.1";
  const { token, log = (line: string) => console.error(line) } = options;
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new RangeError(
      `Cannot serve HTTP as RUSTPAD_MCP_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters: current length is ${token.length}`,
    );
  }
  const tokens = [
    ...(token === undefined ? [] : [{ name: "", token }]),
    ...options.identities ?? [],
  ];
  checkIdentities(tokens);
  const bearer = tokens.length === 0 ? undefined : new BearerCheck(tokens);
  const bound = hostname === "0.0.0.0" || hostname === "::" ? [] : [hostname];
  const origins = new OriginCheck({
    allowedHosts: [
      ...bound.map((name) => name.includes(":") ? `[${name}]` : name),
      ...options.allowedHosts ?? [],
    ],
    allowedOrigins: options.allowedOrigins ?? [],
  });
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const sessions = new SessionTable(backend, {
    idleMs: options.sessionIdleMs ?? 1_800_000,
    maxSessions: options.maxSessions ?? 1000,
    identities: tokens.length,
    maxMessageBytes,
  });
  const modern = new ModernEndpoint(backend, maxMessageBytes);
  let draining = false;
  const calls = new CallsInFlight();

  async function handleMcp(
    request: Request,
    identity: string,
    parsedBody?: unknown,
  ): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    let session: HttpSession | undefined;
    let settle: (() => void) | undefined;
    if (id !== null) {
      session = sessions.get(id, identity);
      if (session === undefined) {
        return jsonError(
          404,
          "Cannot find the session as it ended or expired: initialize a new one",
        );
      }
    } else if (request.method === "POST") {
      const full = sessions.refusal(identity);
      if (full !== undefined) {
        return jsonError(503, full, { "retry-after": "5" });
      }
      ({ session, settle } = await sessions.start(identity));
    } else {
      return jsonError(
        400,
        "Cannot serve the request as it has no Mcp-Session-Id header: initialize first with POST",
      );
    }
    // A GET is the session's notification stream: open for as long as the
    // client listens, so it is neither a call nor activity.
    // A request id still being answered in this session would take over
    // its stream, and leave the first POST hanging for ever.
    const release = request.method === "POST"
      ? session.ids.claim(parsedBody)
      : () => {};
    if (typeof release === "string") {
      settle?.();
      return jsonError(409, release);
    }
    const leave = request.method === "GET" ? () => {} : sessions.enter(session);
    const end = request.method === "POST" ? calls.enter() : () => {};
    const done = () => {
      release();
      leave();
      end();
    };
    try {
      const response = await session.transport.handleRequest(
        request,
        parsedBody === undefined ? {} : { parsedBody },
      );
      return trackBody(response, done);
    } catch (error) {
      done();
      throw error;
    } finally {
      settle?.();
    }
  }

  async function route(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === "/healthz") return health(request, backend, draining);
    if (path !== "/mcp") {
      return jsonError(404, `Cannot find ${path}: the MCP endpoint is /mcp`);
    }
    const refused = origins.check(request);
    if (refused !== undefined) return refused;
    const authorized = bearer?.check(request) ?? { identity: "" };
    if (authorized instanceof Response) return authorized;
    const { identity } = authorized;
    // The whole body first, within the caps and the request deadline, so
    // no session slot waits on a client that trickles its initialize.
    const whole = await readWhole(request, maxMessageBytes);
    if (whole instanceof Response) return whole;
    new AnswerBudget(ANSWERS_PER_BODY * maxMessageBytes).attach(whole.request);
    // Parsed once, for the era, the ids and the SDK alike.
    const { parsed } = whole;
    if (await modern.claims(whole.request, parsed)) {
      return draining
        ? shuttingDown()
        : await handleModern(whole.request, identity, parsed);
    }
    // Draining: no new sessions or calls, but the answers that calls in
    // flight wait for (elicitation results, cancellations) still get in.
    if (
      !draining ||
      request.headers.has("mcp-session-id") && parsed !== undefined &&
        onlyAnswers(parsed)
    ) {
      return await handleMcp(whole.request, identity, parsed);
    }
    return shuttingDown();
  }

  // A 2026-era request: no session, a call in flight like a 2025 one;
  // a listen stream is not a call, as a 2025 GET stream is not.
  async function handleModern(
    request: Request,
    identity: string,
    parsedBody: unknown,
  ): Promise<Response> {
    const listens =
      request.headers.get("mcp-method") === "subscriptions/listen";
    const done = listens ? () => {} : calls.enter();
    try {
      return trackBody(
        await modern.fetch(request, identity, parsedBody),
        done,
      );
    } catch (error) {
      done();
      throw error;
    }
  }

  async function serve(request: Request): Promise<Response> {
    const started = performance.now();
    let response: Response;
    try {
      response = await route(request);
    } catch (error) {
      log(`rustpad-mcp: request failed: ${(error as Error).message}`);
      response = jsonError(500, "Cannot serve the request: internal error");
    }
    log(accessLine(request, response, performance.now() - started));
    return response;
  }

  let listener: HttpListener;
  try {
    listener = new HttpListener({
      hostname,
      port: options.port ?? 0,
      maxConnections: options.maxConnections ?? 1024,
      requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
      keepAliveMs: options.keepAliveTimeoutMs ?? 5000,
      maxBodyBytes: maxMessageBytes,
      maxBodyBytesInFlight: BODIES_IN_FLIGHT * maxMessageBytes,
      maxHeadBytes: MAX_HEAD_BYTES,
      // Room for a whole answer at its bound, at up to 3 bytes a character.
      maxQueuedBytes: 3 * ANSWERS_PER_BODY * maxMessageBytes,
      handler: serve,
      refuse: (status, message) => jsonError(status, message),
      log,
    });
  } catch (error) {
    void sessions.close();
    void modern.close();
    throw listenError(error, hostname, options.port ?? 0);
  }
  const address = listener.addr;
  // Decided on the address bound, never on how the name reads: a name
  // such as 127.0.0.1.example.com may resolve anywhere.
  if (bearer === undefined && !isLoopback(address.hostname)) {
    void listener.close(0);
    void sessions.close();
    void modern.close();
    throw new RangeError(
      `Cannot serve HTTP on ${hostname}${
        hostname === address.hostname ? "" : ` (${address.hostname})`
      } without a token as anyone who can reach it could edit pads: set RUSTPAD_MCP_TOKEN (at least ${MIN_TOKEN_LENGTH} characters) or RUSTPAD_MCP_TOKENS, or listen on 127.0.0.1`,
    );
  }
  listener.start();
  const url = new URL(
    `http://${
      address.hostname.includes(":")
        ? `[${address.hostname}]`
        : address.hostname
    }:${address.port}/mcp`,
  );
  const finished = Promise.withResolvers<void>();

  let stopping: Promise<void> | undefined;
  async function shutdown(): Promise<void> {
    draining = true;
    const drainMs = options.drainMs ?? 10_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      calls.idle,
      new Promise<void>((resolve) => timer = setTimeout(resolve, drainMs)),
    ]);
    clearTimeout(timer);
    await Promise.all([sessions.close(), modern.close()]);
    await listener.close(CLOSE_GRACE_MS);
    finished.resolve();
  }

  return {
    url,
    get sessionCount() {
      return sessions.size;
    },
    get connectionCount() {
      return listener.connectionCount;
    },
    shutdown() {
      stopping ??= shutdown();
      return stopping;
    },
    finished: finished.promise,
    [Symbol.asyncDispose]() {
      return this.shutdown();
    },
  };
}

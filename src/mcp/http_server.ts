/**
 * MCP over Streamable HTTP for a team: `POST`/`GET`/`DELETE /mcp` with
 * `Mcp-Session-Id` sessions (SSE for elicitation, progress and
 * notifications), `GET /healthz`, bearer-token auth, Host and Origin
 * allow-lists against DNS rebinding, a cap on sessions, idle expiry and a
 * graceful drain. Every session runs on one shared {@linkcode Backend}, so
 * many agents in one pad are one connection to Rustpad.
 *
 * @module
 */

import { BearerCheck, jsonError, OriginCheck } from "./_http_guard.ts";
import { type HttpSession, SessionTable } from "./_http_sessions.ts";
import { accessLine, onlyAnswers, trackBody } from "./_http_util.ts";
import type { Backend } from "../backend/backend.ts";
import { isLoopback, MIN_TOKEN_LENGTH } from "../config/listen.ts";
import { VERSION } from "../config/version.ts";

/** Options for {@linkcode serveHttp}. */
export interface HttpServerOptions {
  /**
   * The address to bind. Anything but loopback requires `token`.
   *
   * @default {"127.0.0.1"}
   */
  hostname?: string;
  /**
   * The port; 0 picks a free one.
   *
   * @default {0}
   */
  port?: number;
  /** The bearer token clients must send, at least 32 characters. */
  token?: string | undefined;
  /** Host header values allowed besides loopback names: `name` or `name:port`. */
  allowedHosts?: readonly string[];
  /** Origins allowed besides loopback ones, such as `https://app.example`. */
  allowedOrigins?: readonly string[];
  /**
   * Close a session after this long without a request.
   *
   * @default {1800000}
   */
  sessionIdleMs?: number;
  /**
   * The most live sessions; a new one beyond this gets 503.
   *
   * @default {1000}
   */
  maxSessions?: number;
  /**
   * How long {@linkcode HttpServer.shutdown} lets calls in flight finish.
   *
   * @default {10000}
   */
  drainMs?: number;
  /**
   * Where access-log lines and notices go.
   *
   * @default {console.error}
   */
  log?: (line: string) => void;
}

/** A running HTTP server from {@linkcode serveHttp}. */
export interface HttpServer extends AsyncDisposable {
  /** The MCP endpoint, such as `http://127.0.0.1:8080/mcp`. */
  readonly url: URL;
  /** Live sessions. */
  readonly sessionCount: number;
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
 * @throws {RangeError} If `hostname` is not loopback and there is no token,
 * or the token is shorter than 32 characters.
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
  if (token === undefined && !isLoopback(hostname)) {
    throw new RangeError(
      `Cannot serve HTTP on ${hostname} without a token as anyone who can reach it could edit pads: set RUSTPAD_MCP_TOKEN (at least ${MIN_TOKEN_LENGTH} characters), or listen on 127.0.0.1`,
    );
  }
  const bearer = token === undefined ? undefined : new BearerCheck(token);
  const bound = hostname === "0.0.0.0" || hostname === "::" ? [] : [hostname];
  const origins = new OriginCheck({
    allowedHosts: [
      ...bound.map((name) => name.includes(":") ? `[${name}]` : name),
      ...options.allowedHosts ?? [],
    ],
    allowedOrigins: options.allowedOrigins ?? [],
  });
  const sessions = new SessionTable(backend, {
    idleMs: options.sessionIdleMs ?? 1_800_000,
    maxSessions: options.maxSessions ?? 1000,
  });
  let draining = false;
  let inFlight = 0;
  let idle = Promise.withResolvers<void>();
  idle.resolve();

  async function handleMcp(
    request: Request,
    parsedBody?: unknown,
  ): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    let session: HttpSession | undefined;
    let settle: (() => void) | undefined;
    if (id !== null) {
      session = sessions.get(id);
      if (session === undefined) {
        return jsonError(
          404,
          "Cannot find the session as it ended or expired: initialize a new one",
        );
      }
    } else if (request.method === "POST") {
      if (sessions.full) {
        return jsonError(
          503,
          `Cannot start a session as the server has its maximum of ${sessions.size} live sessions (RUSTPAD_MCP_MAX_SESSIONS): retry later`,
          { "retry-after": "5" },
        );
      }
      ({ session, settle } = await sessions.start());
    } else {
      return jsonError(
        400,
        "Cannot serve the request as it has no Mcp-Session-Id header: initialize first with POST",
      );
    }
    // A GET is the session's notification stream: open for as long as the
    // client listens, so it is neither a call nor activity.
    const isCall = request.method === "POST";
    const leave = request.method === "GET" ? () => {} : sessions.enter(session);
    if (isCall && inFlight++ === 0) idle = Promise.withResolvers<void>();
    const done = () => {
      leave();
      if (isCall && --inFlight === 0) idle.resolve();
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
    if (path === "/healthz") {
      if (request.method !== "GET" && request.method !== "HEAD") {
        return jsonError(405, "Cannot serve /healthz except with GET", {
          allow: "GET, HEAD",
        });
      }
      return Response.json({
        status: draining ? "draining" : "ok",
        version: VERSION,
      }, { status: draining ? 503 : 200 });
    }
    if (path !== "/mcp") {
      return jsonError(404, `Cannot find ${path}: the MCP endpoint is /mcp`);
    }
    const refused = origins.check(request) ?? await bearer?.check(request);
    if (refused !== undefined) return refused;
    if (!draining) return await handleMcp(request);
    // Draining: no new sessions or calls, but the answers that calls in
    // flight wait for (elicitation results, cancellations) still get in.
    const body =
      request.method === "POST" && request.headers.has("mcp-session-id")
        ? await request.json().catch(() => undefined)
        : undefined;
    if (body !== undefined && onlyAnswers(body)) {
      return await handleMcp(request, body);
    }
    return jsonError(
      503,
      "Cannot serve the request as the server is shutting down: retry on another replica or after the restart",
      { "retry-after": "5" },
    );
  }

  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname,
      port: options.port ?? 0,
      onListen: () => {},
    }, async (request) => {
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
    });
  } catch (error) {
    void sessions.close();
    throw error;
  }
  const address = server.addr;
  const url = new URL(
    `http://${
      address.hostname.includes(":")
        ? `[${address.hostname}]`
        : address.hostname
    }:${address.port}/mcp`,
  );

  let stopping: Promise<void> | undefined;
  async function shutdown(): Promise<void> {
    draining = true;
    const drainMs = options.drainMs ?? 10_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      idle.promise,
      new Promise<void>((resolve) => timer = setTimeout(resolve, drainMs)),
    ]);
    clearTimeout(timer);
    await sessions.close();
    await server.shutdown();
  }

  return {
    url,
    get sessionCount() {
      return sessions.size;
    },
    shutdown() {
      stopping ??= shutdown();
      return stopping;
    },
    finished: server.finished,
    [Symbol.asyncDispose]() {
      return this.shutdown();
    },
  };
}

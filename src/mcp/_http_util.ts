// Small pieces of the HTTP server that need none of its state: reading a
// request body within its cap, telling a body of answers from one with
// calls, noticing when a response body ends, the access-log line, the
// health answer and the refusal while shutting down.

import { jsonError } from "./_http_guard.ts";
import type { Backend } from "../backend/backend.ts";
import { VERSION } from "../config/version.ts";
import { HttpBodyError, tooLarge } from "../http/mod.ts";

/**
 * The whole body of `request`, at most `maxBytes`; or the error response
 * (413 over the cap, 408 past the request deadline, 400 if it was cut).
 */
async function readBodyBytes(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array | Response> {
  let body: Uint8Array;
  try {
    // Not through request.body: asked for, a body of bytes becomes a
    // stream first.
    body = await request.bytes();
  } catch (error) {
    if (error instanceof HttpBodyError) {
      return jsonError(error.status, error.message);
    }
    return jsonError(
      400,
      "Cannot read the request body as the connection failed before it ended: nothing was done",
    );
  }
  // The listener stops a body at the cap as it arrives; this is for a
  // request that did not come through it.
  if (body.length > maxBytes) {
    const error = tooLarge(maxBytes);
    return jsonError(error.status, error.message);
  }
  return body;
}

/** A request's body read whole, and the request to hand on. */
export interface WholeRequest {
  /**
   * The request itself when its body is JSON or empty (the SDK is given
   * the value, and never reads the body); otherwise a copy that carries
   * the bytes, so the SDK can answer what is wrong with them.
   */
  readonly request: Request;
  /** The body's JSON value; undefined if it is empty or not JSON. */
  readonly parsed: unknown;
}

/**
 * `request` with its whole body read (a POST's, within `maxBytes`) and
 * parsed; or the error response.
 */
export async function readWhole(
  request: Request,
  maxBytes: number,
): Promise<WholeRequest | Response> {
  if (request.method !== "POST") {
    return { request, parsed: undefined };
  }
  const body = await readBodyBytes(request, maxBytes);
  if (body instanceof Response) return body;
  const parsed = body.length > 0 ? parseJson(body) : undefined;
  if (parsed !== undefined || body.length === 0) {
    return { request, parsed };
  }
  return {
    request: new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: body as Uint8Array<ArrayBuffer>,
      signal: request.signal,
    }),
    parsed,
  };
}

/** Decodes request bodies; stateless, so one serves every request. */
const utf8 = new TextDecoder();

/** The JSON value in `bytes`, or undefined if they are not JSON. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    return undefined;
  }
}

/** Whether a POST body holds only responses and notifications, no calls. */
export function onlyAnswers(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.length > 0 &&
    messages.every((message) =>
      typeof message === "object" && message !== null &&
      !("id" in message && "method" in message)
    );
}

/** `response` with `done` called once its body ends, fails or is cancelled. */
export function trackBody(response: Response, done: () => void): Response {
  const body = response.body;
  if (body === null) {
    done();
    return response;
  }
  const reader = body.getReader();
  const tracked = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          done();
          controller.close();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    async cancel(reason) {
      done();
      await reader.cancel(reason);
    },
  });
  const answer = new Response(tracked, {
    status: response.status,
    statusText: response.statusText,
  });
  // Appended: headers given to the constructor are converted and copied
  // through WebIDL, at over three times the cost.
  for (const [name, value] of response.headers) {
    answer.headers.append(name, value);
  }
  return answer;
}

/** One access-log line: never headers, so never a token. */
export function accessLine(
  request: Request,
  response: Response,
  elapsedMs: number,
): string {
  const path = new URL(request.url).pathname;
  const session = request.headers.get("mcp-session-id") ??
    response.headers.get("mcp-session-id") ?? "-";
  return `rustpad-mcp http: ${request.method} ${path} ${response.status} ${
    Math.round(elapsedMs)
  }ms session=${session.slice(0, 8)}`;
}

/** The answer to `GET /healthz`: whether this replica takes requests. */
export function health(
  request: Request,
  backend: Backend,
  draining: boolean,
): Response {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return jsonError(405, "Cannot serve /healthz except with GET", {
      allow: "GET, HEAD",
    });
  }
  const state = backend.state.health();
  // Reported, not a reason to leave the rotation (every replica shares the
  // one Rustpad); cached, so a probe never waits on it.
  const rustpad = backend.upstream.status();
  const status = draining
    ? "draining"
    : state === "unreachable"
    ? "degraded"
    : "ok";
  return Response.json({
    status,
    version: VERSION,
    ...(state !== "memory" && { state }),
    rustpad,
  }, { status: status === "ok" ? 200 : 503 });
}

/** The answer to a new call while the server drains. */
export function shuttingDown(): Response {
  return jsonError(
    503,
    "Cannot serve the request as the server is shutting down: retry on another replica or after the restart",
    { "retry-after": "5" },
  );
}

/** The calls being answered, so a drain can wait for them. */
export class CallsInFlight {
  #count = 0;
  #idle = Promise.withResolvers<void>();

  constructor() {
    this.#idle.resolve();
  }

  /** Settles when no call is in flight. */
  get idle(): Promise<void> {
    return this.#idle.promise;
  }

  /** Count a call in; returns its end (idempotent). */
  enter(): () => void {
    if (this.#count++ === 0) this.#idle = Promise.withResolvers<void>();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.#count === 0) this.#idle.resolve();
    };
  }
}

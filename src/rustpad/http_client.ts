/**
 * The Rustpad HTTP client: a pad's current text (`GET api/text/{id}`) and the
 * server's statistics (`GET api/stats`). Every wait, the answer's body
 * included, is bounded by a timeout, and every body by a size (2 MiB for a
 * pad's text, 64 KiB for stats); redirects are not followed. Every failure
 * is a {@linkcode RustpadHttpError} that names the URL and what went wrong,
 * and never repeats the body of an error page.
 *
 * @example Read a pad
 * ```ts ignore
 * import { RustpadHttpClient } from "@rustpad-mcp/server";
 *
 * const client = new RustpadHttpClient("https://rustpad.io");
 * const text = await client.getText("meeting-notes");
 * ```
 *
 * @module
 */

import {
  AnswerTooLarge,
  describe,
  MAX_STATS_ANSWER_BYTES,
  MAX_TEXT_ANSWER_BYTES,
  networkReason,
  readCapped,
  redirectTarget,
} from "./_http_answer.ts";
import { openPatiently } from "./_patient_open.ts";
import { checkPadId } from "./pad_id.ts";
import { apiUrl, parseBaseUrl } from "./urls.ts";

/** The statistics of a Rustpad server, as `GET api/stats` answers them. */
export interface RustpadStats {
  /** When the server started, in seconds since the Unix epoch. */
  start_time: number;
  /** Pads in memory. */
  num_documents: number;
  /** Pads persisted to the database; 0 without persistence. */
  database_size: number;
}

/** Options of {@linkcode RustpadHttpClient}. */
export interface HttpClientOptions {
  /**
   * The longest any request may take, from sending it to reading the whole
   * answer, in milliseconds.
   *
   * @default {15000}
   */
  timeoutMs?: number;
  /**
   * Aborts every request of the client when it aborts; the request then
   * rejects with the signal's reason, not a {@linkcode RustpadHttpError}.
   */
  signal?: AbortSignal;
  /**
   * As `SessionPoolOptions.upstreamBack`: when a request cannot connect,
   * resolves `true` once the server is back (the GET is then sent again, a
   * few times at most) or `false` when it will not be.
   */
  upstreamBack?: () => Promise<boolean>;
}

/** What kind of failure a {@linkcode RustpadHttpError} reports. */
export type RustpadHttpErrorKind =
  | "unreachable"
  | "timeout"
  | "status"
  | "malformed";

/** The default of {@linkcode HttpClientOptions.timeoutMs}. */
const DEFAULT_TIMEOUT_MS = 15_000;
/** The longest delay a timer accepts. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * A request to a Rustpad server that failed: the server could not be
 * reached (`unreachable`), did not answer in time (`timeout`), answered with
 * a status other than 200, a redirect included (`status`), or answered
 * something that is not what the route returns, such as a body over the
 * size cap (`malformed`).
 *
 * @example Tell a missing server from an error answer
 * ```ts
 * import { RustpadHttpError } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const error = new RustpadHttpError(
 *   "status",
 *   "http://127.0.0.1:3030/api/stats",
 *   "Cannot get stats from Rustpad at http://127.0.0.1:3030/api/stats as it answered an error: current status is 502 Bad Gateway",
 *   { status: 502 },
 * );
 * assert.equal(error.kind, "status");
 * assert.equal(error.status, 502);
 * ```
 */
export class RustpadHttpError extends Error {
  /** What kind of failure this is. */
  readonly kind: RustpadHttpErrorKind;
  /** The URL that was requested. */
  readonly url: string;
  /** The HTTP status, for a `status` error. */
  readonly status?: number;

  /**
   * Create an error.
   *
   * @param kind What kind of failure this is.
   * @param url The URL that was requested.
   * @param message The message, naming the URL and the failure.
   * @param options The HTTP status and the underlying error, if any.
   */
  constructor(
    kind: RustpadHttpErrorKind,
    url: string,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.name = "RustpadHttpError";
    this.kind = kind;
    this.url = url;
    if (options.status !== undefined) this.status = options.status;
  }
}

/**
 * Reads pads and statistics from a Rustpad server over HTTP.
 *
 * @example Read a pad's text and the server's statistics
 * ```ts
 * import { RustpadHttpClient } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * await using server = Deno.serve(
 *   { hostname: "127.0.0.1", port: 0, onListen() {} },
 *   (request) =>
 *     new URL(request.url).pathname === "/api/stats"
 *       ? Response.json({ start_time: 1, num_documents: 2, database_size: 0 })
 *       : new Response("hello 🎉"),
 * );
 * const client = new RustpadHttpClient(`http://127.0.0.1:${server.addr.port}`);
 * assert.equal(await client.getText("abc"), "hello 🎉");
 * assert.equal((await client.getStats()).num_documents, 2);
 * ```
 */
export class RustpadHttpClient {
  #base: URL;
  #timeoutMs: number;
  #signal: AbortSignal | undefined;
  #upstreamBack: (() => Promise<boolean>) | undefined;

  /**
   * Create a client for the server at `baseUrl`. A path prefix (a server
   * behind `https://example.com/rustpad/`) is kept.
   *
   * @param baseUrl The server's base URL, `http` or `https`.
   * @param options The timeout and an abort signal.
   * @throws {TypeError} If `baseUrl` is not an absolute http(s) URL without
   * query, fragment or credentials.
   * @throws {RangeError} If `timeoutMs` is not a positive number of
   * milliseconds a timer accepts.
   *
   * @example
   * ```ts
   * import { RustpadHttpClient } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * const client = new RustpadHttpClient("https://example.com/rustpad", { timeoutMs: 5000 });
   * assert.equal(client.baseUrl.href, "https://example.com/rustpad/");
   * ```
   */
  constructor(baseUrl: string | URL, options: HttpClientOptions = {}) {
    const { timeoutMs = DEFAULT_TIMEOUT_MS, signal, upstreamBack } = options;
    if (
      typeof timeoutMs !== "number" || !(timeoutMs > 0) ||
      timeoutMs > MAX_TIMEOUT_MS
    ) {
      throw new RangeError(
        `Cannot use timeout as it is not a positive number of milliseconds up to ${MAX_TIMEOUT_MS}: current value is ${timeoutMs}`,
      );
    }
    this.#base = parseBaseUrl(baseUrl);
    this.#timeoutMs = timeoutMs;
    this.#signal = signal;
    this.#upstreamBack = upstreamBack;
  }

  /** The server's base URL, ending with `/`; a copy, so it cannot be changed. */
  get baseUrl(): URL {
    return new URL(this.#base);
  }

  /**
   * The current text of a pad. A pad that was never opened, one that
   * expired and an empty pad all read as `""`.
   *
   * @param padId The pad id, checked before anything is sent.
   * @returns The pad's text.
   * @throws {TypeError} If `padId` is not a valid pad id; nothing is sent.
   * @throws {RustpadHttpError} If the request fails.
   *
   * @example
   * ```ts
   * import { RustpadHttpClient } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * await using server = Deno.serve(
   *   { hostname: "127.0.0.1", port: 0, onListen() {} },
   *   () => new Response("print('hi')\n"),
   * );
   * const client = new RustpadHttpClient(`http://127.0.0.1:${server.addr.port}`);
   * assert.equal(await client.getText("script"), "print('hi')\n");
   * await assert.rejects(client.getText("../admin"), TypeError);
   * ```
   */
  async getText(padId: string): Promise<string> {
    const url = apiUrl(this.#base, `text/${checkPadId(padId)}`);
    const { body } = await this.#get(url, "pad text", MAX_TEXT_ANSWER_BYTES);
    return body;
  }

  /**
   * The server's statistics.
   *
   * @returns The start time and the numbers of pads in memory and persisted.
   * @throws {RustpadHttpError} If the request fails or the answer is not
   * the statistics JSON (`kind: "malformed"`).
   *
   * @example
   * ```ts
   * import { RustpadHttpClient } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * const stats = { start_time: 1700000000, num_documents: 3, database_size: 0 };
   * await using server = Deno.serve(
   *   { hostname: "127.0.0.1", port: 0, onListen() {} },
   *   () => Response.json(stats),
   * );
   * const client = new RustpadHttpClient(`http://127.0.0.1:${server.addr.port}`);
   * assert.deepEqual(await client.getStats(), stats);
   * ```
   */
  async getStats(): Promise<RustpadStats> {
    const url = apiUrl(this.#base, "stats");
    const { body, contentType } = await this.#get(
      url,
      "stats",
      MAX_STATS_ANSWER_BYTES,
    );
    const fail = (reason: string): RustpadHttpError =>
      new RustpadHttpError(
        "malformed",
        url.href,
        `Cannot read stats from Rustpad at ${url.href} as ${reason}`,
      );
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      // Never quote the body: it may be a whole HTML page.
      throw fail(
        `the answer is not JSON: current content type is ${
          contentType ?? "missing"
        }, length ${body.length}`,
      );
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw fail(
        `the answer is not a JSON object: current value is ${describe(value)}`,
      );
    }
    const fields = value as Record<string, unknown>;
    const read = (name: keyof RustpadStats): number => {
      const field = fields[name];
      if (
        typeof field !== "number" || !Number.isSafeInteger(field) || field < 0
      ) {
        throw fail(
          `${name} is not a non-negative integer: current value is ${
            describe(field)
          }`,
        );
      }
      return field;
    };
    return {
      start_time: read("start_time"),
      num_documents: read("num_documents"),
      database_size: read("database_size"),
    };
  }

  /**
   * GET `url` and read the whole body, at most `maxBytes`, all within the
   * timeout. Any answer but 200 (a redirect included: it is not followed)
   * is an error whose body is cancelled unread.
   */
  #get(
    url: URL,
    what: string,
    maxBytes: number,
  ): Promise<{ body: string; contentType: string | null }> {
    return openPatiently(
      () => this.#getOnce(url, what, maxBytes),
      this.#upstreamBack,
      (error) =>
        error instanceof RustpadHttpError && error.kind === "unreachable",
    );
  }

  /** One try of {@linkcode RustpadHttpClient.#get}, with its own timeout. */
  async #getOnce(
    url: URL,
    what: string,
    maxBytes: number,
  ): Promise<{ body: string; contentType: string | null }> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = this.#signal === undefined
      ? timeout
      : AbortSignal.any([timeout, this.#signal]);
    let response: Response;
    try {
      response = await fetch(url, {
        signal,
        headers: { accept: "text/plain, application/json" },
        // A redirect's answer would be reported as the configured server's.
        redirect: "manual",
      });
    } catch (error) {
      throw this.#networkError(error, url, timeout);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      throw new RustpadHttpError(
        "status",
        url.href,
        `Cannot get ${what} from Rustpad at ${url.href} as it answered a redirect to ${
          redirectTarget(response, url)
        } (status ${response.status}), which is not followed: set RUSTPAD_URL to the server's own address`,
        { status: response.status },
      );
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      // The standard reason phrase, never the server's own words: those are
      // upstream text and could carry instructions. node:http is loaded
      // here, not at start, where it would cost every start 20 to 50 ms.
      const { STATUS_CODES } = await import("node:http");
      const reason = STATUS_CODES[response.status];
      const text = reason === undefined ? "" : ` ${reason}`;
      throw new RustpadHttpError(
        "status",
        url.href,
        `Cannot get ${what} from Rustpad at ${url.href} as it answered an error: current status is ${response.status}${text}`,
        { status: response.status },
      );
    }
    try {
      // The signal given to fetch also aborts this read.
      const body = await readCapped(response, maxBytes);
      return { body, contentType: response.headers.get("content-type") };
    } catch (error) {
      await response.body?.cancel().catch(() => {});
      if (error instanceof AnswerTooLarge) {
        throw new RustpadHttpError(
          "malformed",
          url.href,
          `Cannot read ${what} from Rustpad at ${url.href} as the answer is too large: it passed ${maxBytes} bytes, more than any Rustpad answer (a pad holds at most 262,144 code points); check that RUSTPAD_URL is a Rustpad server`,
        );
      }
      throw this.#networkError(error, url, timeout);
    }
  }

  /** The error to throw for a failed fetch or body read. */
  #networkError(error: unknown, url: URL, timeout: AbortSignal): unknown {
    if (timeout.aborted) {
      return new RustpadHttpError(
        "timeout",
        url.href,
        `Cannot reach Rustpad at ${url.href}: it did not answer within ${this.#timeoutMs} ms`,
        { cause: error },
      );
    }
    if (this.#signal?.aborted) return this.#signal.reason;
    return new RustpadHttpError(
      "unreachable",
      url.href,
      `Cannot reach Rustpad at ${url.href}: ${networkReason(error)}`,
      { cause: error },
    );
  }
}

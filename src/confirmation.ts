/**
 * Asking a person before a destructive write. {@linkcode ConfirmationGuard}
 * either asks through a form elicitation (a function the caller passes in,
 * so MCP stays out of this module) or, without one, hands out a single-use
 * token that a second, identical call must bring back.
 *
 * A token is `<payload>.<mac>`, both base64url. The payload (JSON) holds a
 * random nonce, a MAC of that nonce, the expiry, the tool, the pad id, the
 * SHA-256 of the canonical JSON of the bound arguments and the SHA-256 of the
 * pad text the write would destroy; `mac` is HMAC-SHA-256 of the payload
 * under a per-guard secret, checked with `crypto.subtle.verify` (constant
 * time). Checks run in this order, and the first failure is the
 * {@linkcode ConfirmationError.reason}: malformed, forged or altered,
 * expired, reused, mismatched. A token is used up only when it is redeemed.
 *
 * @module
 */

/** What a destructive call asks a person to confirm. */
export interface ConfirmationRequest {
  /** The tool that would write, such as `set_document`. */
  tool: string;
  /** The pad it would write to. */
  padId: string;
  /**
   * The exact arguments the token binds, JSON values only (plain objects,
   * arrays, strings, finite numbers, booleans, `null`; `undefined` object
   * properties are left out), without `confirm_token`. Key order does not
   * matter.
   */
  binding: unknown;
  /** The current pad text the write would destroy; bound by SHA-256. */
  content: string;
  /**
   * One or two sentences for the person: the pad, its current length and,
   * for replacements, the count. Never pad text.
   */
  message: string;
}

/** The answer of a form elicitation, as the client returns it. */
export interface ElicitAnswer {
  /** What the person did with the form. */
  action: "accept" | "decline" | "cancel";
  /** The form's fields, on `accept`. */
  content?: Record<string, unknown> | undefined;
}

/**
 * Ask the person through a form elicitation with
 * {@linkcode ConfirmationGuard.requestedSchema} and `message`.
 */
export type ElicitConfirm = (message: string) => Promise<ElicitAnswer>;

/** The result of {@linkcode ConfirmationGuard.check}. */
export type ConfirmationOutcome =
  | {
    /** Proceed with the write. */
    status: "confirmed";
  }
  | {
    /** Do not write: the person declined, cancelled or answered no. */
    status: "declined";
    /** Which of those happened, and that nothing changed. */
    message: string;
  }
  | {
    /** Do not write: a person must agree and the call be repeated. */
    status: "confirmation_required";
    /** The token to pass back as `confirm_token`. */
    confirm_token: string;
    /** How long the token stays valid. */
    expires_in_seconds: number;
    /** What to do: ask the person, then call again with the token. */
    message: string;
  };

/** Why a token was refused. */
export type ConfirmationReason =
  | "malformed"
  | "forged"
  | "altered"
  | "expired"
  | "reused"
  | "mismatched";

/**
 * A `confirm_token` that cannot be redeemed. The message says why and what
 * to do next, for a model to act on.
 *
 * @example Telling reasons apart
 * ```ts
 * import { ConfirmationError, ConfirmationGuard } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * const guard = new ConfirmationGuard();
 * const request = {
 *   tool: "set_document",
 *   padId: "notes",
 *   binding: { text: "new" },
 *   content: "old",
 *   message: 'Replace all 3 characters of pad "notes"?',
 * };
 * await assert.rejects(
 *   guard.check(request, { token: "abc" }),
 *   (error) => error instanceof ConfirmationError && error.reason === "malformed",
 * );
 * ```
 */
export class ConfirmationError extends Error {
  /** Why the token was refused. */
  readonly reason: ConfirmationReason;

  /**
   * Make an error for one reason.
   *
   * @param reason Why the token was refused.
   * @param message What went wrong and what to do next.
   */
  constructor(reason: ConfirmationReason, message: string) {
    super(message);
    this.name = "ConfirmationError";
    this.reason = reason;
  }
}

/** Options for {@linkcode ConfirmationGuard}. */
export interface ConfirmationGuardOptions {
  /**
   * How long a token stays valid, in milliseconds: a positive integer.
   *
   * @default {600000}
   */
  ttlMs?: number;
  /**
   * The clock, in milliseconds since the epoch; inject one in tests.
   *
   * @default {Date.now}
   */
  now?: () => number;
  /**
   * The HMAC key, at least 32 bytes; copied. Tokens from a guard with
   * another secret are refused as forged.
   *
   * @default {32 random bytes per guard}
   */
  secret?: Uint8Array;
}

/** How {@linkcode ConfirmationGuard.check} finds the person's answer. */
export interface ConfirmationContext {
  /** The `confirm_token` the caller passed, if any; it wins over `elicit`. */
  token?: string | undefined;
  /** Asks through a form elicitation, when the client supports it. */
  elicit?: ElicitConfirm | undefined;
}

/** The form {@linkcode ConfirmationGuard.requestedSchema} describes. */
export interface ConfirmationSchema {
  /** Always an object. */
  readonly type: "object";
  /** The single field. */
  readonly properties: {
    /** The person's answer. */
    readonly confirm: {
      /** A checkbox. */
      readonly type: "boolean";
      /** Its label. */
      readonly title: string;
      /** Its help text. */
      readonly description: string;
    };
  };
  /** `confirm` must be answered. */
  readonly required: ["confirm"];
}

const DEFAULT_TTL_MS = 600_000;
const MIN_SECRET_BYTES = 32;
const NONCE_BYTES = 16;
const MAX_TOKEN_LENGTH = 4096;
const TOKEN_LABEL = "rustpad-mcp confirm token v1\n";
const NONCE_LABEL = "rustpad-mcp confirm nonce v1\n";
const TOKEN_PATTERN = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;
const NONCE_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const DIGEST_PATTERN = /^[A-Za-z0-9_-]{43}$/;

interface Payload {
  /** Format version. */
  v: 1;
  /** Nonce, base64url. */
  n: string;
  /** HMAC of the nonce, base64url: tells an altered token from a forged one. */
  k: string;
  /** Expiry, milliseconds since the epoch. */
  e: number;
  /** Tool. */
  t: string;
  /** Pad id. */
  p: string;
  /** SHA-256 of the canonical JSON of the binding, base64url. */
  a: string;
  /** SHA-256 of the content, base64url. */
  c: string;
}

const encoder = new TextEncoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

/**
 * Decode unpadded base64url, or `undefined` if it is not in the one
 * canonical spelling (so no two token strings decode alike).
 */
function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
  return toBase64Url(bytes) === text ? bytes : undefined;
}

/** SHA-256 of a string's UTF-16 code units (exact, even for lone surrogates). */
async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes[2 * i] = unit & 0xff;
    bytes[2 * i + 1] = unit >> 8;
  }
  return toBase64Url(
    new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
  );
}

/** JSON with object keys sorted, so equal arguments give equal text. */
function canonicalJson(
  value: unknown,
  path: string,
  ancestors: Set<object>,
): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (Number.isFinite(value)) return JSON.stringify(value);
      break;
    case "object": {
      const prototype = Object.getPrototypeOf(value);
      const isArray = Array.isArray(value);
      if (
        ancestors.has(value) ||
        (!isArray && prototype !== Object.prototype && prototype !== null)
      ) break;
      ancestors.add(value);
      let text: string;
      if (isArray) {
        text = `[${
          value.map((item, index) =>
            canonicalJson(item, `${path}[${index}]`, ancestors)
          ).join(",")
        }]`;
      } else {
        const record = value as Record<string, unknown>;
        const members = Object.keys(record).sort()
          .filter((key) => record[key] !== undefined)
          .map((key) =>
            `${JSON.stringify(key)}:${
              canonicalJson(
                record[key],
                `${path}[${JSON.stringify(key)}]`,
                ancestors,
              )
            }`
          );
        text = `{${members.join(",")}}`;
      }
      ancestors.delete(value);
      return text;
    }
  }
  throw new TypeError(
    `Cannot bind a confirmation to the arguments as they are not plain JSON: ${path} is ${
      typeof value === "object" ? "a cycle or a non-plain object" : typeof value
    }`,
  );
}

/** Read a payload's fields strictly, or `undefined` if they are not ours. */
function parsePayload(segment: string): Payload | undefined {
  const bytes = fromBase64Url(segment);
  if (bytes === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return undefined;
  }
  const fields = value as Record<string, unknown>;
  const { v, n, k, e, t, p, a, c } = fields;
  if (
    Object.keys(fields).length !== 8 || v !== 1 ||
    typeof n !== "string" || !NONCE_PATTERN.test(n) ||
    typeof k !== "string" || !DIGEST_PATTERN.test(k) ||
    typeof e !== "number" || !Number.isSafeInteger(e) ||
    typeof t !== "string" || typeof p !== "string" ||
    typeof a !== "string" || !DIGEST_PATTERN.test(a) ||
    typeof c !== "string" || !DIGEST_PATTERN.test(c)
  ) {
    return undefined;
  }
  return { v, n, k, e, t, p, a, c };
}

function describeDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds >= 60 && seconds % 60 === 0) {
    const minutes = seconds / 60;
    return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  }
  if (seconds >= 1) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  return `${ms} ms`;
}

/**
 * Guards destructive writes: asks a person through an elicitation, or issues
 * and redeems single-use confirmation tokens bound to the tool, the pad, the
 * exact arguments and the pad text the write would destroy. Tokens live in
 * this guard's memory only (the set of used nonces and the secret), so one
 * guard serves one server process, and a restart invalidates all tokens.
 *
 * @example The two-call token path
 * ```ts
 * import { ConfirmationGuard } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * const guard = new ConfirmationGuard();
 * const request = {
 *   tool: "set_document",
 *   padId: "notes",
 *   binding: { pad_id: "notes", text: "Fresh start" },
 *   content: "Old text",
 *   message: 'Replace all 8 characters of pad "notes" with new text?',
 * };
 * const first = await guard.check(request, {});
 * assert.equal(first.status, "confirmation_required");
 * if (first.status !== "confirmation_required") throw new Error("unreachable");
 *
 * // ...a person agrees, and the model calls again with the token:
 * const second = await guard.check(request, { token: first.confirm_token });
 * assert.deepEqual(second, { status: "confirmed" });
 * ```
 *
 * @example Asking through an elicitation
 * ```ts
 * import { ConfirmationGuard } from "@rustpad-mcp/server";
 * import assert from "node:assert/strict";
 *
 * const guard = new ConfirmationGuard();
 * const outcome = await guard.check({
 *   tool: "set_document",
 *   padId: "notes",
 *   binding: { pad_id: "notes", text: "" },
 *   content: "Old text",
 *   message: 'Erase all 8 characters of pad "notes"?',
 * }, {
 *   elicit: () => Promise.resolve({ action: "accept", content: { confirm: true } }),
 * });
 * assert.deepEqual(outcome, { status: "confirmed" });
 * ```
 */
export class ConfirmationGuard {
  /**
   * The form to elicit: one required boolean `confirm`. Pass it as the
   * elicitation's `requestedSchema`.
   *
   * @example Sending the form
   * ```ts
   * import { ConfirmationGuard } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(ConfirmationGuard.requestedSchema.required, ["confirm"]);
   * assert.equal(ConfirmationGuard.requestedSchema.properties.confirm.type, "boolean");
   * ```
   */
  static readonly requestedSchema: ConfirmationSchema = {
    type: "object",
    properties: {
      confirm: {
        type: "boolean",
        title: "Confirm",
        description:
          "Check to let the AI agent make this change; leave unchecked to keep the pad as it is.",
      },
    },
    required: ["confirm"],
  };

  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #secret: Uint8Array<ArrayBuffer>;
  #key: Promise<CryptoKey> | undefined;
  /** Nonces of redeemed tokens, with their expiry, pruned once expired. */
  readonly #used = new Map<string, number>();

  /**
   * Make a guard with its own secret and its own record of used tokens.
   *
   * @param options Token lifetime, clock and secret.
   * @throws {RangeError} If `ttlMs` is not a positive integer or `secret` is
   * shorter than 32 bytes.
   */
  constructor(options: ConfirmationGuardOptions = {}) {
    const { ttlMs = DEFAULT_TTL_MS, now = Date.now, secret } = options;
    if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
      throw new RangeError(
        `Cannot create confirmation guard as ttlMs must be a positive integer: current value is ${ttlMs}`,
      );
    }
    if (secret !== undefined && secret.length < MIN_SECRET_BYTES) {
      throw new RangeError(
        `Cannot create confirmation guard as the secret must be at least ${MIN_SECRET_BYTES} bytes: current length is ${secret.length}`,
      );
    }
    this.#ttlMs = ttlMs;
    this.#now = now;
    this.#secret = secret === undefined
      ? crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES))
      : new Uint8Array(secret);
  }

  /**
   * Decide whether a destructive call may proceed.
   *
   * - With `context.token`: redeem it. It must be well formed, issued by
   *   this guard and unchanged, not expired, not used before, and issued for
   *   the same tool, pad, arguments and pad content. Then it is used up and
   *   the result is `confirmed`.
   * - Else with `context.elicit`: ask through it with `request.message`.
   *   `accept` with `confirm: true` gives `confirmed`; `accept` with
   *   anything else, `decline` and `cancel` give `declined`, each with its
   *   own message. If `elicit` throws, the error propagates.
   * - Else: issue a token and return `confirmation_required`; nothing is
   *   recorded until the token comes back.
   *
   * @param request What would be written, and the message for the person.
   * @param context The caller's token, or a way to ask.
   * @returns The outcome; write only on `confirmed`.
   * @throws {ConfirmationError} If the token cannot be redeemed.
   * @throws {TypeError} If `request.binding` is not plain JSON.
   *
   * @example A token for other arguments is refused
   * ```ts
   * import { ConfirmationError, ConfirmationGuard } from "@rustpad-mcp/server";
   * import assert from "node:assert/strict";
   *
   * const guard = new ConfirmationGuard();
   * const request = {
   *   tool: "set_document",
   *   padId: "notes",
   *   binding: { text: "A" },
   *   content: "Old",
   *   message: 'Replace all 3 characters of pad "notes"?',
   * };
   * const issued = await guard.check(request, {});
   * assert.equal(issued.status, "confirmation_required");
   * if (issued.status !== "confirmation_required") throw new Error("unreachable");
   * await assert.rejects(
   *   guard.check({ ...request, binding: { text: "B" } }, { token: issued.confirm_token }),
   *   (error) => error instanceof ConfirmationError && error.reason === "mismatched",
   * );
   * ```
   */
  async check(
    request: ConfirmationRequest,
    context: ConfirmationContext,
  ): Promise<ConfirmationOutcome> {
    const bindingText = canonicalJson(request.binding, "binding", new Set());
    if (context.token !== undefined) {
      return await this.#redeem(request, bindingText, context.token);
    }
    if (context.elicit !== undefined) {
      return await this.#ask(request, context.elicit);
    }
    return await this.#issue(request, bindingText);
  }

  #getKey(): Promise<CryptoKey> {
    this.#key ??= crypto.subtle.importKey(
      "raw",
      this.#secret,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    return this.#key;
  }

  async #sign(label: string, text: string): Promise<string> {
    const mac = await crypto.subtle.sign(
      "HMAC",
      await this.#getKey(),
      encoder.encode(label + text),
    );
    return toBase64Url(new Uint8Array(mac));
  }

  async #verify(label: string, text: string, mac: string): Promise<boolean> {
    const bytes = fromBase64Url(mac);
    if (bytes === undefined) return false;
    return await crypto.subtle.verify(
      "HMAC",
      await this.#getKey(),
      bytes,
      encoder.encode(label + text),
    );
  }

  async #issue(
    request: ConfirmationRequest,
    bindingText: string,
  ): Promise<ConfirmationOutcome> {
    const nonce = toBase64Url(
      crypto.getRandomValues(new Uint8Array(NONCE_BYTES)),
    );
    const payload: Payload = {
      v: 1,
      n: nonce,
      k: await this.#sign(NONCE_LABEL, nonce),
      e: this.#now() + this.#ttlMs,
      t: request.tool,
      p: request.padId,
      a: await digest(bindingText),
      c: await digest(request.content),
    };
    const segment = toBase64Url(encoder.encode(JSON.stringify(payload)));
    const duration = describeDuration(this.#ttlMs);
    return {
      status: "confirmation_required",
      confirm_token: `${segment}.${await this.#sign(TOKEN_LABEL, segment)}`,
      expires_in_seconds: Math.floor(this.#ttlMs / 1000),
      message:
        `${request.message} Nothing has been changed yet. Show this to the person and, only if they agree, call ${request.tool} again with exactly the same arguments plus confirm_token. The token works once, only while pad ${
          JSON.stringify(request.padId)
        } stays as it is now, and expires in ${duration}.`,
    };
  }

  async #ask(
    request: ConfirmationRequest,
    elicit: ElicitConfirm,
  ): Promise<ConfirmationOutcome> {
    const answer = await elicit(request.message);
    if (answer.action === "accept" && answer.content?.confirm === true) {
      return { status: "confirmed" };
    }
    const what = `${request.tool} on pad ${JSON.stringify(request.padId)}`;
    let message: string;
    if (answer.action === "accept") {
      message =
        `The person answered no to ${what}; nothing was changed. Do not try again unless they ask for it.`;
    } else if (answer.action === "decline") {
      message =
        `The person declined ${what}; nothing was changed. Do not try again unless they ask for it.`;
    } else {
      message =
        `The person dismissed the confirmation for ${what} without answering; nothing was changed. Ask them before trying again.`;
    }
    return { status: "declined", message };
  }

  async #redeem(
    request: ConfirmationRequest,
    bindingText: string,
    token: string,
  ): Promise<ConfirmationOutcome> {
    const { tool } = request;
    const fresh = `call ${tool} again without confirm_token for a fresh one`;
    const match = token.length <= MAX_TOKEN_LENGTH
      ? TOKEN_PATTERN.exec(token)
      : null;
    if (match === null) {
      throw new ConfirmationError(
        "malformed",
        `Cannot accept confirm_token as it is malformed: pass back exactly the confirm_token string of a confirmation_required result, or ${fresh}`,
      );
    }
    const [, segment = "", mac = ""] = match;
    const payload = parsePayload(segment);
    if (!await this.#verify(TOKEN_LABEL, segment, mac)) {
      if (
        payload !== undefined &&
        await this.#verify(NONCE_LABEL, payload.n, payload.k)
      ) {
        throw new ConfirmationError(
          "altered",
          `Cannot accept confirm_token as it was changed after this server issued it: pass it back exactly as given, or ${fresh}`,
        );
      }
      throw new ConfirmationError(
        "forged",
        `Cannot accept confirm_token as this server did not issue it: it is forged, damaged beyond recognition, or from before the server restarted; ${fresh}`,
      );
    }
    if (payload === undefined) {
      throw new ConfirmationError(
        "malformed",
        `Cannot accept confirm_token as its contents cannot be read: ${fresh}`,
      );
    }
    const bindingDigest = await digest(bindingText);
    const contentDigest = await digest(request.content);

    // No await from here on: the checks and the marking as used happen
    // together, so two concurrent calls cannot both redeem one token.
    const now = this.#now();
    for (const [nonce, expiry] of this.#used) {
      if (expiry <= now) this.#used.delete(nonce);
    }
    if (now >= payload.e) {
      throw new ConfirmationError(
        "expired",
        `Cannot accept confirm_token as it has expired: tokens are valid for ${
          describeDuration(this.#ttlMs)
        } and this one expired ${
          describeDuration(now - payload.e)
        } ago; ${fresh}, and ask the person again`,
      );
    }
    if (this.#used.has(payload.n)) {
      throw new ConfirmationError(
        "reused",
        `Cannot accept confirm_token as it has already been used: each token confirms one call; ${fresh}, and ask the person again`,
      );
    }
    if (payload.t !== tool) {
      throw new ConfirmationError(
        "mismatched",
        `Cannot accept confirm_token as it was issued for another tool: it confirms ${
          JSON.stringify(payload.t)
        }, not ${JSON.stringify(tool)}; ${fresh}`,
      );
    }
    if (payload.p !== request.padId) {
      throw new ConfirmationError(
        "mismatched",
        `Cannot accept confirm_token as it was issued for another pad: it confirms pad ${
          JSON.stringify(payload.p)
        }, not pad ${JSON.stringify(request.padId)}; ${fresh}`,
      );
    }
    if (payload.a !== bindingDigest) {
      throw new ConfirmationError(
        "mismatched",
        `Cannot accept confirm_token as the arguments differ from the ones it was issued for: call ${tool} again with exactly the same arguments plus confirm_token, or without confirm_token for a fresh confirmation`,
      );
    }
    if (payload.c !== contentDigest) {
      throw new ConfirmationError(
        "mismatched",
        `Cannot accept confirm_token as the pad changed since the confirmation was issued: pad ${
          JSON.stringify(request.padId)
        } no longer holds the text the person agreed to change; ${fresh}, and ask the person again`,
      );
    }
    this.#used.set(payload.n, payload.e);
    return { status: "confirmed" };
  }
}

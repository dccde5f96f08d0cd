/**
 * Asking a person before a destructive write. {@linkcode ConfirmationGuard}
 * either asks through a form elicitation (a function the caller passes in,
 * so MCP stays out of this module) or, without one, hands out a single-use
 * token that a second, identical call must bring back.
 *
 * A token (signed and read by `_confirm_token.ts`) binds the identity it
 * was issued to, the tool, the pad,
 * the exact arguments, the pad text the write would destroy and the pad's
 * revision. Checks run in this order, and the first failure is the
 * {@linkcode ConfirmationError.reason}: malformed, forged or altered,
 * expired, reused, mismatched. A token is used up only when it is redeemed:
 * its nonce is marked used in the guard's {@linkcode UsedTokens} in one
 * set-if-absent step (shared by replicas through Redis, so two redeeming it
 * at once cannot both write), and the write moves the pad's revision, so
 * every replica that shares the secret refuses it as well.
 *
 * @module
 */

import {
  canonicalJson,
  digest,
  HmacSigner,
  TokenCodec,
} from "./_confirm_token.ts";
import { UsedTokensInMemory } from "./used_tokens.ts";
import {
  CONFIRMATION_SCHEMA,
  type ConfirmationContext,
  ConfirmationError,
  type ConfirmationGuardOptions,
  type ConfirmationOutcome,
  type ConfirmationRequest,
  type ConfirmationSchema,
  declined,
  describeDuration,
  type ElicitConfirm,
  mismatched,
  unreadableToken,
  type UsedTokens,
} from "./_confirm_types.ts";

export {
  type ConfirmationContext,
  ConfirmationError,
  type ConfirmationGuardOptions,
  type ConfirmationOutcome,
  type ConfirmationReason,
  type ConfirmationRequest,
  type ConfirmationSchema,
  type ElicitAnswer,
  type ElicitConfirm,
  type UsedTokens,
} from "./_confirm_types.ts";

const DEFAULT_TTL_MS = 600_000;
const MIN_SECRET_BYTES = 32;

/**
 * Guards destructive writes: asks a person through an elicitation, or issues
 * and redeems single-use confirmation tokens bound to the tool, the pad, the
 * exact arguments, the pad text the write would destroy and its revision.
 * Guards that share a secret (replicas) accept each other's tokens; with a
 * random secret, a restart invalidates all tokens.
 *
 * @example The two-call token path
 * ```ts
 * import { ConfirmationGuard } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const guard = new ConfirmationGuard();
 * const request = {
 *   tool: "set_document",
 *   padId: "notes",
 *   binding: { pad_id: "notes", text: "Fresh start" },
 *   content: "Old text",
 *   revision: 4,
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
 * import { ConfirmationGuard } from "../mod.ts";
 * import assert from "node:assert/strict";
 *
 * const guard = new ConfirmationGuard();
 * const outcome = await guard.check({
 *   tool: "set_document",
 *   padId: "notes",
 *   binding: { pad_id: "notes", text: "" },
 *   content: "Old text",
 *   revision: 4,
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
   * import { ConfirmationGuard } from "../mod.ts";
   * import assert from "node:assert/strict";
   *
   * assert.deepEqual(ConfirmationGuard.requestedSchema.required, ["confirm"]);
   * assert.equal(ConfirmationGuard.requestedSchema.properties.confirm.type, "boolean");
   * ```
   */
  static readonly requestedSchema: ConfirmationSchema = CONFIRMATION_SCHEMA;

  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #codec: TokenCodec;
  readonly #used: UsedTokens;

  /**
   * Make a guard with its own secret and its own record of used tokens.
   *
   * @param options Token lifetime, clock and secret.
   * @throws {RangeError} If `ttlMs` is not a positive integer or `secret` is
   * shorter than 32 bytes.
   */
  constructor(options: ConfirmationGuardOptions = {}) {
    const { ttlMs = DEFAULT_TTL_MS, now = Date.now, secret } = options;
    this.#used = options.usedTokens ?? new UsedTokensInMemory(now);
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
    this.#codec = new TokenCodec(
      new HmacSigner(
        secret ?? crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES)),
      ),
    );
  }

  /**
   * Decide whether a destructive call may proceed.
   *
   * - With `context.token`: redeem it. It must be well formed, issued by
   *   this guard (or one with the same secret) and unchanged, not expired,
   *   not used before, and issued for the same tool, pad, arguments, pad
   *   content and revision. Then it is used up and
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
   * import { ConfirmationError, ConfirmationGuard } from "../mod.ts";
   * import assert from "node:assert/strict";
   *
   * const guard = new ConfirmationGuard();
   * const request = {
   *   tool: "set_document",
   *   padId: "notes",
   *   binding: { text: "A" },
   *   content: "Old",
   *   revision: 1,
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
    const bindingText = canonicalJson(request.binding, "binding");
    if (context.token !== undefined) {
      return await this.#redeem(request, bindingText, context.token);
    }
    if (context.elicit !== undefined) {
      return await this.#ask(request, context.elicit);
    }
    return await this.#issue(request, bindingText);
  }

  async #issue(
    request: ConfirmationRequest,
    bindingText: string,
  ): Promise<ConfirmationOutcome> {
    const token = await this.#codec.issue({
      e: this.#now() + this.#ttlMs,
      i: request.identity ?? "",
      t: request.tool,
      p: request.padId,
      a: await digest(bindingText),
      c: await digest(request.content),
      r: request.revision,
    });
    const duration = describeDuration(this.#ttlMs);
    return {
      status: "confirmation_required",
      confirm_token: token,
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
    return declined(request, answer.action);
  }

  async #redeem(
    request: ConfirmationRequest,
    bindingText: string,
    token: string,
  ): Promise<ConfirmationOutcome> {
    const { tool } = request;
    const fresh = `call ${tool} again without confirm_token for a fresh one`;
    const opened = await this.#codec.open(token);
    if (opened.status !== "valid") throw unreadableToken(opened.status, tool);
    const { nonce, claims: payload } = opened;
    const bindingDigest = await digest(bindingText);
    const contentDigest = await digest(request.content);

    const now = this.#now();
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
    const reused = () =>
      new ConfirmationError(
        "reused",
        `Cannot accept confirm_token as it has already been used: each token confirms one call; ${fresh}, and ask the person again`,
      );
    if (await this.#used.has(nonce)) throw reused();
    const mismatch = mismatched(payload, request, bindingDigest, contentDigest);
    if (mismatch !== undefined) throw mismatch;
    // Set if absent, in one step: of two redemptions at once, on one
    // replica or two sharing the record, one gets through.
    if (!await this.#used.use(nonce, payload.e)) throw reused();
    return { status: "confirmed" };
  }
}

/**
 * What keeps people safe from an agent's writes: confirmation by a person
 * (dialogs or signed single-use tokens), idempotency keys, untrusted fences
 * and conflicts with what people changed. Imports the OT core and the
 * Rustpad client's types.
 *
 * @module
 */

export {
  type ConfirmationContext,
  ConfirmationError,
  ConfirmationGuard,
  type ConfirmationGuardOptions,
  type ConfirmationOutcome,
  type ConfirmationReason,
  type ConfirmationRequest,
  type ConfirmationSchema,
  type ElicitAnswer,
  type ElicitConfirm,
  type UsedTokens,
} from "./confirmation.ts";
export { EditIds, type EditRef } from "./edit_ids.ts";
export {
  fenceAround,
  type FenceOptions,
  fenceUntrusted,
  quoteName,
} from "./untrusted.ts";
export {
  type AuthoredOperation,
  type Conflict,
  type EditRange,
  findConflicts,
} from "./conflicts.ts";
export {
  fingerprint,
  IdempotencyKeyReusedError,
  IdempotencyStore,
  type IdempotencyStoreOptions,
  type IdempotentOutcome,
} from "./idempotency.ts";
export { UsedTokensInMemory } from "./used_tokens.ts";

/**
 * `edit_id`: the handle every write answers with, so that an agent without
 * a session (or with several) can undo exactly that edit later. It names
 * the identity that wrote, the pad, the revision the write reported, the
 * pad connection that sent it, and what no restart can reuse: the digests
 * of the pad's history up to it and of the edit itself (a restarted
 * Rustpad numbers revisions and connections anew, so the numbers alone
 * would name someone else's edit). It is signed with the confirmation secret
 * (`RUSTPAD_CONFIRM_SECRET`): replicas sharing it read each other's ids; no
 * caller can make one up, alter one, or use another identity's.
 *
 * The wire form is `<payload>.<mac>`, both base64url: the payload is JSON,
 * the MAC is HMAC-SHA-256 under a label of its own, so a `confirm_token`
 * never reads as an `edit_id` or the other way round.
 *
 * @module
 */

import {
  decodeJsonSegment,
  HmacSigner,
  toBase64Url,
} from "./_confirm_token.ts";

const LABEL = "rustpad-mcp edit id v1\n";
const EDIT_ID_PATTERN = /^([A-Za-z0-9_-]{1,2048})\.([A-Za-z0-9_-]{43})$/;

/** What an `edit_id` names. */
export interface EditRef {
  /** The identity whose write it was (`""`: the unnamed one). */
  readonly identity: string;
  /** The pad written. */
  readonly padId: string;
  /** The revision the write reported: the edit is history index `revision - 1`. */
  readonly revision: number;
  /** The user id of the pad connection that sent it, in decimal. */
  readonly author: string;
  /** The digest of the pad's history up to the edit (`PadSession.lineageAt`). */
  readonly lineage: string;
  /** The digest of the edit with its author (`PadSession.operationDigest`). */
  readonly operation: string;
}

/**
 * Issues and reads `edit_id`s with one secret.
 *
 * @example An id reads back for its identity and pad only
 * ```ts
 * import { EditIds } from "./edit_ids.ts";
 * import assert from "node:assert/strict";
 *
 * const ids = new EditIds(new Uint8Array(32).fill(7));
 * const ref = {
 *   identity: "alice",
 *   padId: "notes",
 *   revision: 3,
 *   author: "0",
 *   lineage: "Xq3h",
 *   operation: "b7Rk",
 * };
 * const editId = await ids.issue(ref);
 * assert.deepEqual(await ids.open(editId, { identity: "alice", padId: "notes" }), ref);
 * await assert.rejects(ids.open(editId, { identity: "bob", padId: "notes" }), /another identity/);
 * await assert.rejects(ids.open(editId, { identity: "alice", padId: "todo" }), /pad "notes"/);
 * ```
 */
export class EditIds {
  readonly #signer: HmacSigner;

  /**
   * Make the issuer.
   *
   * @param secret The key, at least 32 bytes; the confirmation secret.
   */
  constructor(secret: Uint8Array) {
    this.#signer = new HmacSigner(secret);
  }

  /**
   * The `edit_id` of one write.
   *
   * @param ref The identity, pad, revision and connection of the write.
   * @returns The id.
   */
  async issue(ref: EditRef): Promise<string> {
    const { identity: i, padId: p, revision: r, author: u } = ref;
    const { lineage: l, operation: o } = ref;
    const segment = toBase64Url(
      new TextEncoder().encode(JSON.stringify({ i, p, r, u, l, o })),
    );
    return `${segment}.${await this.#signer.sign(LABEL, segment)}`;
  }

  /**
   * Read an `edit_id` for a caller about to undo on a pad.
   *
   * @param editId The id the caller passed.
   * @param expected The caller's identity and the pad it names.
   * @returns What the id names.
   * @throws {RangeError} If this server did not issue it (or it was
   * changed), or it names another identity's edit or another pad; the
   * message says what to do.
   */
  async open(
    editId: string,
    expected: { identity: string; padId: string },
  ): Promise<EditRef> {
    const match = EDIT_ID_PATTERN.exec(editId);
    const ref = match === null ? undefined : parseRef(match[1]!);
    if (
      ref === undefined ||
      !await this.#signer.verify(LABEL, match![1]!, match![2]!)
    ) {
      throw new RangeError(
        `Cannot undo by edit_id as this server did not issue it or it was changed: current value is ${
          JSON.stringify(editId.slice(0, 24))
        }${
          editId.length > 24 ? "…" : ""
        }. Nothing was changed; pass back exactly the edit_id of a write result, or call undo_last_edit without edit_id`,
      );
    }
    if (ref === OLD) {
      throw new RangeError(
        `Cannot undo by edit_id as it was issued before edit ids named the pad's history, so it cannot tell the edit from another one at its revision after a restart: current value is ${
          JSON.stringify(editId.slice(0, 24))
        }…. Nothing was changed; read the pad and edit it directly, or call undo_last_edit without edit_id`,
      );
    }
    if (ref.identity !== expected.identity) {
      throw new RangeError(
        `Cannot undo by edit_id as it names an edit of another identity: only the bearer token whose write answered with it may undo it. Nothing was changed; undo only your own edits`,
      );
    }
    if (ref.padId !== expected.padId) {
      throw new RangeError(
        `Cannot undo by edit_id on pad ${
          JSON.stringify(expected.padId)
        } as it names an edit of pad ${
          JSON.stringify(ref.padId)
        }: current id is ${
          JSON.stringify(expected.padId)
        }. Nothing was changed; call undo_last_edit with the id ${
          JSON.stringify(ref.padId)
        } and this edit_id`,
      );
    }
    return ref;
  }
}

/** A payload of an earlier version, without the history's digests. */
const OLD = "old";

/**
 * A payload's fields, {@linkcode OLD} for an id of an earlier version, or
 * `undefined` if they are not an edit reference.
 */
function parseRef(segment: string): EditRef | typeof OLD | undefined {
  const value = decodeJsonSegment(segment);
  if (value === undefined) return undefined;
  const { i, p, r, u, l, o } = value;
  if (
    typeof i !== "string" || typeof p !== "string" ||
    typeof r !== "number" || !Number.isSafeInteger(r) || r < 1 ||
    typeof u !== "string" || !/^\d{1,20}$/.test(u)
  ) {
    return undefined;
  }
  if (l === undefined && o === undefined) return OLD;
  if (typeof l !== "string" || typeof o !== "string") return undefined;
  return {
    identity: i,
    padId: p,
    revision: r,
    author: u,
    lineage: l,
    operation: o,
  };
}

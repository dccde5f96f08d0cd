// The digests that tell one history of a pad from another (see
// `_lineage.ts`): each operation with its author, chained from the first.

import { createHash } from "node:crypto";
import type { TextOperation } from "../ot/operation.ts";
import type { UserId } from "./protocol.ts";

/**
 * How many of a history's first operations name it. A restart that brings
 * back the same first operations (a pad restored twice from the same text)
 * is still told apart by the operation at the revision in question.
 */
export const LINEAGE_DEPTH = 16;

/** The digest of one history operation chained onto `previous`. */
export function chainDigest(
  previous: string,
  author: UserId,
  operation: TextOperation,
): string {
  return createHash("sha256")
    .update(`${previous}\n${author}\n${JSON.stringify(operation)}`)
    .digest("base64url")
    .slice(0, 22);
}

// Naming the author of an operation for one agent: itself, another agent
// (of this process or, once learnt from the state store, any replica), this
// server, or the person by the name they announced.

import type { UserId } from "../rustpad/protocol.ts";
import type { PadLive } from "./_pad_live.ts";
import type { AuthorLedger } from "./state_store.ts";

/** Who is asking, and where agents' connections are recorded. */
export interface AuthorContext {
  /** The asking agent. */
  readonly agent: string;
  /** The identity of the pool the pad belongs to. */
  readonly identity: string;
  /** Which identity each of the server's connections is. */
  readonly authors: AuthorLedger;
}

/** How `LivePads.describeAuthor` names the operation at `revision`. */
export function describeAuthor(
  pad: PadLive | undefined,
  padId: string,
  author: UserId,
  revision: number,
  context: AuthorContext,
): { name: string; self: boolean } {
  const owner = pad?.owners.ownerOf(revision);
  if (owner === context.agent) return { name: "you", self: true };
  if (owner !== undefined) {
    return { name: agentOf(context.identity), self: false };
  }
  if (pad?.ownIds.has(author)) return { name: "this server", self: false };
  const identity = context.authors.identityOf(padId, author);
  if (identity !== undefined) return { name: agentOf(identity), self: false };
  return {
    name: pad?.presence.name(author) ?? `user ${author}`,
    self: false,
  };
}

/** How another agent of `identity` is named to an agent. */
function agentOf(identity: string): string {
  return identity === ""
    ? "another agent on this server"
    : `an agent of ${JSON.stringify(identity)}`;
}

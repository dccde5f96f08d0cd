/**
 * What the pad server keeps for agents: the suggestions they hold on its
 * pads (pending and recently decided, each a JSON record under its id)
 * and who the agents' connections are (the author of a pad's user id), so
 * both outlive the agent process that made them. One interface, in the
 * manner of ShareDB's database adapters: {@linkcode MemoryAgentStore} for
 * tests and a server without a database, `SqliteAgentStore` in a file.
 *
 * @module
 */

/** One stored suggestion: the fields the store counts by, and its JSON. */
export interface StoredSuggestion {
  /** Its id. */
  readonly id: string;
  /** The identity of the agent that made it, for the fair shares. */
  readonly identity: string;
  /** Whether it is pending (counted against the bounds). */
  readonly pending: boolean;
  /** The whole record, as JSON. */
  readonly json: string;
}

/** Who a pad's user id is, as an agent told the pad server. */
export interface AuthorRecord {
  /** The user id on the pad. */
  readonly userId: number;
  /** The pad name it shows. */
  readonly name: string;
  /** Whether it is an agent. */
  readonly agent: boolean;
  /** The agent's identity (`""`: the unnamed one). */
  readonly identity: string;
}

/** Pending suggestions held by one identity, in one pad and in all. */
export interface PendingCounts {
  /** Pending suggestions of the pad, by everyone. */
  readonly pad: number;
  /** Pending suggestions of the pad, by the identity. */
  readonly padByIdentity: number;
  /** Pending suggestions on every pad, by everyone. */
  readonly total: number;
  /** Pending suggestions on every pad, by the identity. */
  readonly totalByIdentity: number;
  /** The identities with a pending suggestion anywhere. */
  readonly identities: ReadonlySet<string>;
}

/** Where the pad server keeps what agents gave it. */
export interface AgentStore {
  /** Every suggestion of `pad`. */
  suggestions(pad: string): StoredSuggestion[];
  /** One suggestion, or `undefined`. */
  suggestion(pad: string, id: string): StoredSuggestion | undefined;
  /** Store a suggestion, new or replacing the one of its id. */
  putSuggestion(pad: string, suggestion: StoredSuggestion): void;
  /** Forget a suggestion. */
  removeSuggestion(pad: string, id: string): void;
  /** The pending counts for `identity` on `pad`. */
  pending(pad: string, identity: string): PendingCounts;
  /** Record who user `author.userId` of `pad` is. */
  putAuthor(pad: string, author: AuthorRecord): void;
  /** Everyone recorded for `pad`. */
  authors(pad: string): AuthorRecord[];
}

/** At most this many authors are kept per pad; the oldest go first. */
export const MAX_AUTHORS_PER_PAD = 10_000;

/**
 * What agents gave the pad server, in its memory.
 *
 * @example
 * ```ts
 * import { MemoryAgentStore } from "./agent_store.ts";
 * import assert from "node:assert/strict";
 *
 * const store = new MemoryAgentStore();
 * store.putSuggestion("notes", { id: "s1", identity: "", pending: true, json: "{}" });
 * assert.equal(store.pending("notes", "").pad, 1);
 * store.putAuthor("notes", { userId: 3, name: "agent", agent: true, identity: "" });
 * assert.equal(store.authors("notes")[0]!.userId, 3);
 * ```
 */
export class MemoryAgentStore implements AgentStore {
  readonly #suggestions = new Map<string, Map<string, StoredSuggestion>>();
  readonly #authors = new Map<string, Map<number, AuthorRecord>>();

  /** Every suggestion of a pad. */
  suggestions(pad: string): StoredSuggestion[] {
    return [...this.#suggestions.get(pad)?.values() ?? []];
  }

  /** One suggestion. */
  suggestion(pad: string, id: string): StoredSuggestion | undefined {
    return this.#suggestions.get(pad)?.get(id);
  }

  /** Store one suggestion. */
  putSuggestion(pad: string, suggestion: StoredSuggestion): void {
    let held = this.#suggestions.get(pad);
    if (held === undefined) this.#suggestions.set(pad, held = new Map());
    held.set(suggestion.id, suggestion);
  }

  /** Forget one suggestion. */
  removeSuggestion(pad: string, id: string): void {
    const held = this.#suggestions.get(pad);
    held?.delete(id);
    if (held?.size === 0) this.#suggestions.delete(pad);
  }

  /** Count the pending ones. */
  pending(pad: string, identity: string): PendingCounts {
    const counts = {
      pad: 0,
      padByIdentity: 0,
      total: 0,
      totalByIdentity: 0,
      identities: new Set<string>(),
    };
    for (const [padId, held] of this.#suggestions) {
      for (const suggestion of held.values()) {
        if (!suggestion.pending) continue;
        const mine = suggestion.identity === identity;
        counts.identities.add(suggestion.identity);
        counts.total++;
        if (mine) counts.totalByIdentity++;
        if (padId !== pad) continue;
        counts.pad++;
        if (mine) counts.padByIdentity++;
      }
    }
    return counts;
  }

  /** Record one author. */
  putAuthor(pad: string, author: AuthorRecord): void {
    let known = this.#authors.get(pad);
    if (known === undefined) this.#authors.set(pad, known = new Map());
    known.delete(author.userId);
    known.set(author.userId, author);
    if (known.size > MAX_AUTHORS_PER_PAD) {
      known.delete(known.keys().next().value!);
    }
  }

  /** The authors of a pad. */
  authors(pad: string): AuthorRecord[] {
    return [...this.#authors.get(pad)?.values() ?? []];
  }
}

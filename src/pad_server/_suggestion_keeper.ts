// The pad server's suggestions: held for agents of any process, kept in
// its AgentStore, carried over the pad's operations, decided by people (an
// accepted one is applied to the pad as an operation of a user id of its
// own, recorded as the agent's), and heard by every watcher of the pad.

import { TextOperation } from "../ot/operation.ts";
import type { Component } from "../ot/component.ts";
import {
  boundedView,
  cutDiff,
  entryOf,
  hunksOf,
  type SuggestionDecision,
  type SuggestionEntry,
  type SuggestionList,
  type SuggestionView,
  viewOf,
} from "../rustpad/suggestion_views.ts";
import type { AgentStore, AuthorRecord } from "./agent_store.ts";
import {
  carry,
  expire,
  forgotten,
  type Held,
  type HeldLimits,
  historyName,
  MAX_TTL_MS,
  notPending,
  type PadHistory,
  refusal,
  trimmed,
} from "./_held.ts";
import type { Room } from "./_room.ts";
import { PadWatchers } from "./_pad_watchers.ts";

/** Where the keeper finds pads in memory. */
export interface KeeperPads {
  /** The pad's room, if in memory. */
  find(padId: string): Room | undefined;
}

/** What an agent sends to hold a suggestion. */
export interface HoldBody {
  readonly identity: string;
  readonly agent: string;
  readonly author: { readonly name: string; readonly hue: number };
  readonly summary: string;
  readonly revision: number;
  readonly operation: Component[];
  readonly diff: string;
  readonly language?: string;
  readonly ttlMs: number;
  /** How many identities share the agent's server. */
  readonly identities: number;
}

/** A hold refused: the HTTP status and the sentence. */
export interface Refused {
  readonly status: number;
  readonly error: string;
}

/** The suggestions of one pad server. */
export class SuggestionKeeper {
  readonly #store: AgentStore;
  readonly #pads: KeeperPads;
  readonly #limits: HeldLimits;
  readonly #now: () => number;
  readonly #epochs = new WeakMap<Room, string>();
  readonly #watchers: PadWatchers;
  readonly #cache = new Map<string, Map<string, Held>>();
  #declared = 1;

  constructor(
    store: AgentStore,
    pads: KeeperPads,
    options: { limits: HeldLimits; now?: () => number },
  ) {
    this.#store = store;
    this.#pads = pads;
    this.#limits = options.limits;
    this.#now = options.now ?? Date.now;
    this.#watchers = new PadWatchers(
      (pad) => pads.find(pad)?.pad.revision ?? -1,
      (pad) => this.#settled(pad),
    );
  }

  /** Hold an agent's operation, made at `body.revision` of the pad. */
  hold(pad: string, body: HoldBody): Held | Refused {
    const history = this.#history(pad);
    if (history === undefined || body.revision > history.revision) {
      return {
        status: 409,
        error:
          `Cannot hold a suggestion for pad "${pad}" at revision ${body.revision} as the pad is not there: current revision is ${
            history?.revision ?? "none (no one has it open)"
          }. Read the pad again and retry`,
      };
    }
    this.#declared = Math.max(this.#declared, body.identities);
    const why = refusal(
      pad,
      body.identity,
      this.#store.pending(pad, body.identity),
      this.#limits,
      this.#declared,
    );
    if (why !== undefined) return { status: 429, error: why };
    const now = this.#now();
    const made: Held = {
      id: `s${crypto.randomUUID().replaceAll("-", "").slice(0, 11)}`,
      pad,
      identity: body.identity,
      agent: body.agent,
      author: body.author,
      summary: body.summary,
      revision: body.revision,
      operation: body.operation,
      // Agents read it cut (list_suggestions); people see the operation.
      diff: cutDiff(body.diff),
      ...(body.language !== undefined && { language: body.language }),
      status: "pending",
      createdAt: now,
      expiresAt: now + Math.min(body.ttlMs, MAX_TTL_MS),
      epoch: history.epoch,
    };
    const held = carry(made, history);
    const length = TextOperation.fromJSON(held.operation).baseLength;
    if (held.status === "pending" && length !== lengthOf(history)) {
      return {
        status: 400,
        error:
          `Cannot hold a suggestion for pad "${pad}" as its operation does not fit the pad's text at revision ${body.revision}: current base length is ${length}`,
      };
    }
    this.#put(held);
    return held;
  }

  /** The pad's suggestions as people see them, each entry bounded. */
  list(pad: string): SuggestionList {
    const { revision, held, text } = this.#settled(pad);
    const agents = new Set(
      this.#store.authors(pad).filter((a) => a.agent).map((a) => a.userId),
    );
    const connected = [...this.#pads.find(pad)?.connections ?? []];
    return {
      revision,
      suggestions: held.map((h) => boundedView(viewOf(h, text))),
      agentIds: connected.map((c) => c.userId).filter((id) => agents.has(id)),
    };
  }

  /** One suggestion whole, as people see it, or `undefined`. */
  whole(pad: string, id: string): SuggestionView | undefined {
    const { held, text } = this.#settled(pad);
    const found = held.find((h) => h.id === id);
    return found === undefined ? undefined : viewOf(found, text);
  }

  /** The pad's records as agents read them: no operations, diffs cut. */
  entries(pad: string): { revision: number; records: SuggestionEntry[] } {
    const { revision, held } = this.#settled(pad);
    return {
      revision,
      records: held.map(({ epoch: _epoch, ...record }) => entryOf(record)),
    };
  }

  /** Accept (apply to the pad) or reject a pending one, as `by`. */
  decide(
    pad: string,
    id: string,
    verdict: "accept" | "reject",
    by: string | undefined,
  ): SuggestionDecision {
    const found = this.#pending(pad, id, verdict);
    if ("refusal" in found) return found.refusal;
    const { held, text } = found;
    let decided: Held = {
      ...held,
      status: verdict === "accept" ? "accepted" : "rejected",
      decidedBy: by ?? "someone in the pad",
      decidedAt: this.#now(),
      hunks: hunksOf(text, held.operation),
    };
    if (verdict === "accept") decided = this.#apply(decided);
    this.#put(decided);
    if (decided.status !== "outdated") {
      return { ok: true, suggestion: viewOf(decided, "") };
    }
    return {
      ok: false,
      kind: "final",
      error:
        `Cannot accept suggestion "${id}" as ${decided.reason}: it is outdated now. Nothing was changed`,
      suggestion: viewOf(decided, ""),
    };
  }

  /** Withdraw a pending one, only its agent; again: the same answer. */
  withdraw(pad: string, id: string, agent: string): SuggestionDecision {
    const found = this.#pending(pad, id, "withdraw");
    if ("refusal" in found) {
      const own = found.final?.agent === agent ? found.final : undefined;
      return own?.status === "withdrawn"
        ? { ok: true, suggestion: viewOf(own, "") }
        : found.refusal;
    }
    if (found.held.agent !== agent) {
      return {
        ok: false,
        kind: "missing",
        error:
          `Cannot withdraw suggestion "${id}" as another agent made it: current author is ${found.held.author.name}. Nothing was changed`,
      };
    }
    const withdrawn: Held = {
      ...found.held,
      status: "withdrawn",
      reason: "withdrawn by the agent that made it",
      decidedAt: this.#now(),
    };
    this.#put(withdrawn);
    return { ok: true, suggestion: viewOf(withdrawn, "") };
  }

  /**
   * Be told when a suggestion of `pad` is held or decided; while watched,
   * the pad is settled each second its revision moved, so suggestions
   * people's edits made outdated are told too.
   *
   * @returns Unsubscribes.
   */
  watch(pad: string, listener: () => void): () => void {
    return this.#watchers.add(pad, listener);
  }

  /** Stop every watch timer. */
  close(): void {
    this.#watchers.close();
  }

  /** How many changes `pad`'s suggestions have had, for long polls. */
  changes(pad: string): number {
    return this.#watchers.changes(pad);
  }

  /** Record who user `userId` of `pad` is: an agent's connection. */
  putAuthor(pad: string, author: AuthorRecord): void {
    this.#store.putAuthor(pad, author);
  }

  /** Everyone recorded for `pad`. */
  authors(pad: string): AuthorRecord[] {
    return this.#store.authors(pad);
  }

  #tell(pad: string): void {
    this.#watchers.tell(pad);
  }

  /** Store `held` (a decided one trimmed) and tell the pad's watchers. */
  #put(held: Held): void {
    this.#write(held);
    this.#tell(held.pad);
  }

  #write(held: Held): Held {
    const kept = trimmed(held);
    this.#store.putSuggestion(kept.pad, {
      id: kept.id,
      identity: kept.identity,
      pending: kept.status === "pending",
      json: JSON.stringify(kept),
    });
    this.#records(kept.pad).set(kept.id, kept);
    return kept;
  }

  /**
   * The pad's records, read from the store once and kept: this keeper is
   * the store's one writer, and a list then parses no JSON.
   */
  #records(pad: string): Map<string, Held> {
    let records = this.#cache.get(pad);
    if (records === undefined) {
      records = new Map();
      for (const stored of this.#store.suggestions(pad)) {
        records.set(stored.id, JSON.parse(stored.json) as Held);
      }
      this.#cache.set(pad, records);
    }
    return records;
  }

  /** The pad's history now, or `undefined` when it is not in memory. */
  #history(pad: string): PadHistory | undefined {
    const room = this.#pads.find(pad);
    if (room === undefined) return undefined;
    // Named by its first operation: a replayed log keeps it; a restart that
    // starts over (Rustpad's, a compaction) begins with the text inserted.
    let epoch = this.#epochs.get(room);
    if (epoch === undefined && room.pad.revision > 0) {
      const message = room.pad.history(0);
      epoch = historyName(
        "History" in message ? message.History.operations[0] : undefined,
      );
      this.#epochs.set(room, epoch);
    }
    return {
      epoch: epoch ?? "",
      revision: room.pad.revision,
      since: (from) => {
        const message = room.pad.history(from);
        return "History" in message ? message.History.operations : [];
      },
    };
  }

  /** Every record of the pad carried to now, stored so, pending first. */
  #settled(pad: string): { revision: number; held: Held[]; text: string } {
    const history = this.#history(pad) ??
      { epoch: "", revision: 0, since: () => [] };
    const now = this.#now();
    const held: Held[] = [];
    let told = false;
    const records = this.#records(pad);
    for (const before of [...records.values()]) {
      if (forgotten(before, now)) {
        this.#store.removeSuggestion(pad, before.id);
        records.delete(before.id);
        continue;
      }
      let after = expire(carry(before, history), now);
      if (after !== before) {
        after = this.#write(after);
        told ||= after.status !== before.status;
      }
      held.push(after);
    }
    if (records.size === 0) this.#cache.delete(pad);
    if (told) this.#tell(pad);
    held.sort((a, b) =>
      Number(b.status === "pending") - Number(a.status === "pending") ||
      a.createdAt - b.createdAt
    );
    const text = this.#pads.find(pad)?.pad.text ?? "";
    return { revision: history.revision, held, text };
  }

  #pending(pad: string, id: string, verb: string):
    | { held: Held; text: string }
    | { refusal: SuggestionDecision; final?: Held } {
    const { held, text } = this.#settled(pad);
    const found = held.find((h) => h.id === id);
    if (found?.status === "pending") return { held: found, text };
    const refusal = notPending(pad, id, verb, found);
    return found === undefined ? { refusal } : { refusal, final: found };
  }

  /** Apply an accepted record to its pad, as a user id of its own. */
  #apply(held: Held): Held {
    const room = this.#pads.find(held.pad);
    if (room === undefined) {
      return { ...held, status: "outdated", reason: "the pad is not open" };
    }
    const userId = room.pad.join();
    try {
      room.applyOwn(
        userId,
        held.language !== undefined ? { SetLanguage: held.language } : {
          Edit: {
            revision: held.revision,
            operation: TextOperation.fromJSON(held.operation),
          },
        },
      );
    } catch (error) {
      return { ...held, status: "outdated", reason: (error as Error).message };
    }
    this.#store.putAuthor(held.pad, {
      userId,
      name: held.author.name,
      agent: true,
      identity: held.identity,
    });
    return { ...held, landedRevision: room.pad.revision };
  }
}

/** The pad's length in code points now. */
function lengthOf(history: PadHistory): number {
  if (history.revision === 0) return 0;
  return history.since(history.revision - 1)[0]!.operation.targetLength;
}

/**
 * Suggestions: writes an agent holds for the people in a pad to accept or
 * reject, instead of sending them. A held operation is carried over every
 * later operation of its pad, so it stays on the text it was made for, and
 * turns `outdated` when people delete text it changes. Accepting applies it
 * as one edit by the agent's collaborator; a decision is final. Records
 * live in the state store (memory, or Redis so any replica can decide one).
 *
 * @module
 */

import type { PadSession } from "../rustpad/session.ts";
import type { SessionPool } from "../rustpad/session_pool.ts";
import { LivePads } from "./live_pads.ts";
import { applySuggestion } from "./_suggestion_apply.ts";
import { ExpiryAlarms } from "./_expiry_alarms.ts";
import type { SuggestionLimits, SuggestionStore } from "./suggestion_store.ts";
import {
  boundedView,
  entryOf,
  type SuggestionEntry,
} from "../rustpad/suggestion_views.ts";
import type { ChangeListener, Suggestions } from "./_suggestion_keeping.ts";
import {
  advance,
  hunksOf,
  type SuggestionRecord,
} from "./_suggestion_record.ts";
import {
  finalRefusal,
  fullError,
  heldRecord,
  type HoldRequest,
  missing,
  PadListeners,
  refusal,
  type SuggestionDecision,
  type SuggestionList,
  viewOf,
} from "./_suggestion_views.ts";

export type {
  SuggestionEntry,
  SuggestionHunk,
  SuggestionRecord,
  SuggestionStatus,
} from "./_suggestion_record.ts";
export type { ChangeListener, Suggestions } from "./_suggestion_keeping.ts";
export {
  type HoldRequest,
  type SuggestionDecision,
  type SuggestionList,
  type SuggestionView,
  viewOf,
} from "./_suggestion_views.ts";

/** How a {@linkcode SuggestionBook} is set up. */
export interface SuggestionBookOptions {
  /** Where records live. */
  readonly store: SuggestionStore;
  /** The pool of an identity. */
  readonly pool: (identity: string) => SessionPool;
  /** Every pool made so far, for the agents' user ids. */
  readonly pools: () => Iterable<SessionPool>;
  /** `RUSTPAD_SUGGEST_TTL`, in milliseconds. */
  readonly ttlMs: number;
  /** The bounds; {@linkcode SUGGESTION_LIMITS} by default. */
  readonly limits?: SuggestionLimits;
  /** How many identities share the bounds fairly (default 1). */
  readonly identities?: number;
  /** The clock, in milliseconds since the epoch. */
  readonly now?: () => number;
}

/** The bounds of the issue: 100 pending per pad, 1,000 in all. */
export const SUGGESTION_LIMITS: SuggestionLimits = { perPad: 100, total: 1000 };

/** A decision this process saw, for those waiting on the pad. */
export type DecisionListener = (record: SuggestionEntry) => void;

/**
 * The suggestions of one backend.
 *
 * @example Hold nothing, list nothing
 * ```ts
 * import { createBackend, loadConfig } from "@rustpad-mcp/server";
 * import { startPadServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * await using pads = await startPadServer();
 * await using backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
 * assert.equal((await backend.suggestions.list("notes")).suggestions.length, 0);
 * ```
 */
export class SuggestionBook implements Suggestions {
  readonly #options: SuggestionBookOptions;
  readonly #now: () => number;
  readonly #listeners = new PadListeners<SuggestionRecord>();
  readonly #alarms: ExpiryAlarms;
  readonly #changes = new PadListeners<SuggestionRecord>();

  /** Keep suggestions as `options` say. */
  constructor(options: SuggestionBookOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    // Reading a pad's suggestions settles (and tells) the expired ones.
    this.#alarms = new ExpiryAlarms(this.#now, (pad) => {
      this.records(pad).catch(() => {/* Closed or unreachable: next read. */});
    });
  }

  /** Stop the expiry timers; expiries are then noticed when next read. */
  close(): void {
    this.#alarms.close();
  }

  /**
   * Hold an operation built on `request.session`'s server text.
   *
   * @throws {Error} Naming the setting, when a bound is reached.
   */
  async hold(request: HoldRequest): Promise<SuggestionRecord> {
    const record = heldRecord(request, this.#now(), this.#options.ttlMs);
    const limits = this.#options.limits ?? SUGGESTION_LIMITS;
    const added = await this.#options.store.add(
      record.pad,
      record.id,
      JSON.stringify(record),
      limits,
      { identity: record.identity, identities: this.#options.identities ?? 1 },
    );
    if (added !== "added") {
      throw fullError(record.pad, added, limits, record.identity);
    }
    this.#alarms.arm(record.pad, record.expiresAt);
    this.#changes.tell(record.pad, record);
    return record;
  }

  /**
   * The pad's suggestions now, as people see them: pending ones carried
   * over the pad's latest operations, expired ones marked, decided ones
   * kept for the TTL.
   */
  async list(pad: string): Promise<SuggestionList> {
    const { revision, records, text } = await this.#settled(pad);
    return {
      revision,
      suggestions: records.map((record) => boundedView(viewOf(record, text))),
      agentIds: records.length === 0 ? [] : await this.#agentIds(pad),
    };
  }

  /**
   * The pad's suggestion records now, as {@linkcode SuggestionBook.list},
   * without operations and with diffs cut, as agents read them.
   */
  async records(
    pad: string,
  ): Promise<{ revision: number; records: SuggestionEntry[] }> {
    const { revision, records } = await this.#settled(pad);
    return { revision, records: records.map(entryOf) };
  }

  async #settled(
    pad: string,
  ): Promise<{ revision: number; records: SuggestionRecord[]; text: string }> {
    const stored = await this.#options.store.all(pad);
    const records = [...stored.values()].map((json) =>
      JSON.parse(json) as SuggestionRecord
    );
    if (records.length === 0) return { revision: 0, records, text: "" };
    const viewer = records.find((record) => record.status === "pending") ??
      records[0]!;
    const session = await this.#options.pool(viewer.identity).get(pad);
    const settled: SuggestionRecord[] = [];
    for (const record of records) {
      const now = await this.#settle(record, stored.get(record.id)!, session);
      if (now !== undefined) settled.push(now);
    }
    this.#alarms.rearm(pad, settled);
    settled.sort((a, b) =>
      Number(b.status === "pending") - Number(a.status === "pending") ||
      a.createdAt - b.createdAt
    );
    return {
      revision: session.revision,
      records: settled,
      text: session.serverText,
    };
  }

  /**
   * Accept or reject a pending suggestion as `by`; accepting applies it as
   * one edit by its identity's collaborator. Final: a second decision, or
   * one on an outdated, expired or withdrawn suggestion, changes nothing.
   */
  async decide(
    pad: string,
    id: string,
    verdict: "accept" | "reject",
    by: string | undefined,
  ): Promise<SuggestionDecision> {
    const found = await this.#pending(pad, id, verdict);
    if ("outcome" in found) return found.outcome;
    const session = await this.#options.pool(found.record.identity).get(pad);
    const claimed = await this.#finish(found, {
      status: verdict === "accept" ? "accepted" : "rejected",
      decidedBy: by ?? "someone in the pad",
      decidedAt: this.#now(),
      hunks: hunksOf(session.serverText, found.record.operation),
    });
    if (claimed === undefined) return await this.#raced(pad, id, verdict);
    let record = claimed;
    if (verdict === "accept") {
      const landed = await applySuggestion(
        this.#options.pool(claimed.identity),
        claimed,
      );
      record = typeof landed === "number"
        ? { ...claimed, landedRevision: landed }
        : { ...claimed, status: "outdated", reason: landed };
      await this.#options.store.swap(
        pad,
        id,
        JSON.stringify(claimed),
        JSON.stringify(record),
        false,
      );
    }
    this.#tell(pad, record);
    if (record.status !== "outdated") {
      return { ok: true, suggestion: viewOf(record, "") };
    }
    return refusal(
      "final",
      `Cannot accept suggestion "${id}" as ${record.reason}: it is outdated now. Nothing was changed`,
      viewOf(record, ""),
    );
  }

  /** Withdraw a pending suggestion, only its agent; again: the same answer. */
  async withdraw(
    pad: string,
    id: string,
    agent: string,
  ): Promise<SuggestionDecision> {
    const found = await this.#pending(pad, id, "withdraw");
    if ("outcome" in found) {
      const own = found.final?.agent === agent ? found.final : undefined;
      return own?.status === "withdrawn"
        ? { ok: true, suggestion: viewOf(own, "") }
        : found.outcome;
    }
    if (found.record.agent !== agent) {
      return refusal(
        "missing",
        `Cannot withdraw suggestion "${id}" as another agent made it: current author is ${found.record.author.name}. Nothing was changed`,
      );
    }
    const record = await this.#finish(found, {
      status: "withdrawn",
      reason: "withdrawn by the agent that made it",
    });
    if (record === undefined) return this.#raced(pad, id, "withdraw");
    this.#tell(pad, record);
    return { ok: true, suggestion: viewOf(record, "") };
  }

  /** Decisions made here on `pad`, told as made (`watching`: at once). */
  onDecision(
    pad: string,
    listener: DecisionListener,
    watching?: () => void,
  ): () => void {
    if (watching !== undefined) queueMicrotask(watching);
    return this.#listeners.add(pad, listener);
  }

  /** Holds and decisions made here on `pad` (`watching`: at once). */
  onChange(
    pad: string,
    listener: ChangeListener,
    watching?: () => void,
  ): () => void {
    if (watching !== undefined) queueMicrotask(watching);
    return this.#changes.add(pad, listener);
  }

  #tell(pad: string, record: SuggestionRecord): void {
    this.#listeners.tell(pad, record);
    this.#changes.tell(pad, record);
  }

  /** The record if pending (carried to now), else the refusal (and it). */
  async #pending(
    pad: string,
    id: string,
    verb: string,
  ): Promise<
    | { record: SuggestionRecord; json: string }
    | { outcome: SuggestionDecision; final?: SuggestionRecord }
  > {
    const json = await this.#options.store.get(pad, id);
    if (json === undefined) return { outcome: missing(pad, id, verb) };
    const stored = JSON.parse(json) as SuggestionRecord;
    const session = await this.#options.pool(stored.identity).get(pad);
    // Everything people did before the decision, seen before judging it.
    await session.roundTrip();
    const record = await this.#settle(stored, json, session) ?? stored;
    if (record.status !== "pending") {
      return { outcome: finalRefusal(record, verb), final: record };
    }
    return { record, json: JSON.stringify(record) };
  }

  /** Swap a pending record for a final one; `undefined` if it changed. */
  async #finish(
    found: { record: SuggestionRecord; json: string },
    change: Partial<SuggestionRecord>,
  ): Promise<SuggestionRecord | undefined> {
    const next = { ...found.record, ...change };
    const swapped = await this.#options.store.swap(
      next.pad,
      next.id,
      found.json,
      JSON.stringify(next),
      next.status === "pending",
    );
    return swapped ? next : undefined;
  }

  /** Someone decided it first: the refusal naming what they decided. */
  async #raced(
    pad: string,
    id: string,
    verb: string,
  ): Promise<SuggestionDecision> {
    const json = await this.#options.store.get(pad, id);
    if (json === undefined) return missing(pad, id, verb);
    return finalRefusal(JSON.parse(json) as SuggestionRecord, verb);
  }

  /**
   * The record carried to `session`'s revision, expired past its time, and
   * stored so; `undefined` for a decided one past the TTL (forgotten).
   */
  async #settle(
    record: SuggestionRecord,
    json: string,
    session: PadSession,
  ): Promise<SuggestionRecord | undefined> {
    const now = this.#now();
    if (record.status !== "pending") {
      if ((record.decidedAt ?? record.expiresAt) + this.#options.ttlMs < now) {
        await this.#options.store.remove(record.pad, record.id);
        return undefined;
      }
      return record;
    }
    const next = record.expiresAt <= now
      ? {
        ...record,
        status: "expired" as const,
        reason: "no one decided it within RUSTPAD_SUGGEST_TTL",
        decidedAt: now,
      }
      : advance(record, session);
    if (next === record) return record;
    const pending = next.status === "pending";
    // Another replica may have carried or decided it first: read it again.
    if (
      !await this.#options.store.swap(
        record.pad,
        record.id,
        json,
        JSON.stringify(next),
        pending,
      )
    ) {
      const latest = await this.#options.store.get(record.pad, record.id);
      return latest === undefined
        ? undefined
        : advance(JSON.parse(latest) as SuggestionRecord, session);
    }
    if (!pending) this.#tell(record.pad, next);
    return next;
  }

  async #agentIds(pad: string): Promise<number[]> {
    const ids: number[] = [];
    for (const pool of this.#options.pools()) {
      if (!LivePads.of(pool).openPads.includes(pad)) continue;
      ids.push(Number((await pool.get(pad)).userId));
    }
    return ids;
  }
}

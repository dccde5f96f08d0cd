// Suggestions kept by the pad server (its agent API): every agent process
// on it holds, lists and withdraws through it, people decide there, and
// each process hears decisions by long-polling the pad's records while
// someone here listens. An accepted one is claimed for the agent that made
// it if that agent is of this process (its undo, "you" in get_changes).

import type {
  SuggestionDecision,
  SuggestionEntry,
  SuggestionList,
  SuggestionRecord,
  SuggestionView,
} from "../rustpad/suggestion_views.ts";
import type { AgentLink } from "./_agent_link.ts";
import {
  heldFields,
  type HoldRequest,
  PadListeners,
} from "./_suggestion_views.ts";
import type { ChangeListener, Suggestions } from "./_suggestion_keeping.ts";

/** How long one long poll waits on the pad server, in milliseconds. */
const WAIT_MS = 20_000;
/** After a failed poll, the next one waits this long. */
const RETRY_MS = 1000;

interface Polled {
  readonly changes: number;
  readonly revision: number;
  readonly records: SuggestionEntry[];
}

/** Suggestions on the pad server, shared by every agent process there. */
export class RemoteSuggestions implements Suggestions {
  readonly #link: AgentLink;
  readonly #claim: (record: SuggestionEntry) => Promise<void> | void;
  readonly #ttlMs: number;
  readonly #identities: number;
  readonly #decisions = new PadListeners<SuggestionEntry>();
  readonly #changes = new PadListeners<SuggestionEntry | undefined>();
  readonly #polls = new Map<string, AbortController>();
  /** Pads whose poll has read their records: later decisions are told. */
  readonly #watched = new Set<string>();
  /** Called once their pad is watched (see onDecision). */
  readonly #waiters = new Map<string, (() => void)[]>();
  #closed = false;

  constructor(
    link: AgentLink,
    options: {
      /**
       * An accepted one landed: claim it if its agent is here; its
       * decision is told once this settles.
       */
      claim: (record: SuggestionEntry) => Promise<void> | void;
      ttlMs: number;
      identities: number;
    },
  ) {
    this.#link = link;
    this.#claim = options.claim;
    this.#ttlMs = options.ttlMs;
    this.#identities = options.identities;
  }

  async hold(request: HoldRequest): Promise<SuggestionRecord> {
    const record = await this.#link.post<SuggestionRecord>(
      `suggestions/${encodeURIComponent(request.session.padId)}`,
      {
        ...heldFields(request),
        ttlMs: this.#ttlMs,
        identities: this.#identities,
      },
    );
    this.#changes.tell(record.pad, record);
    return record;
  }

  list(pad: string): Promise<SuggestionList> {
    return this.#link.get(`suggestions/${encodeURIComponent(pad)}`, {
      people: true,
    });
  }

  async records(
    pad: string,
  ): Promise<{ revision: number; records: SuggestionEntry[] }> {
    const { revision, records } = await this.#link.get<Polled>(
      `suggestions/${encodeURIComponent(pad)}`,
    );
    // Accepted ones of this process's agents are theirs (undo, "you").
    for (const record of records) {
      if (record.status === "accepted") void this.#claim(record);
    }
    return { revision, records };
  }

  async decide(
    pad: string,
    id: string,
    verdict: "accept" | "reject",
    by: string | undefined,
  ): Promise<SuggestionDecision> {
    return this.#decision(
      await this.#link.decision(this.#path(pad, id), {
        action: "decide",
        verdict,
        ...(by !== undefined && { by }),
      }),
    );
  }

  async withdraw(
    pad: string,
    id: string,
    agent: string,
  ): Promise<SuggestionDecision> {
    return this.#decision(
      await this.#link.decision(this.#path(pad, id), {
        action: "withdraw",
        agent,
      }),
    );
  }

  onDecision(
    pad: string,
    listener: (record: SuggestionEntry) => void,
    watching?: () => void,
  ): () => void {
    return this.#follow(pad, this.#decisions.add(pad, listener), watching);
  }

  onChange(
    pad: string,
    listener: ChangeListener,
    watching?: () => void,
  ): () => void {
    return this.#follow(pad, this.#changes.add(pad, listener), watching);
  }

  close(): void {
    this.#closed = true;
    for (const poll of this.#polls.values()) poll.abort();
    this.#polls.clear();
    this.#watched.clear();
    this.#waiters.clear();
  }

  #path(pad: string, id: string): string {
    return `suggestions/${encodeURIComponent(pad)}/${encodeURIComponent(id)}`;
  }

  /** A 200 is the view; 404 and 409 are the refusal as it is. */
  #decision(body: unknown): SuggestionDecision {
    const refusal = body as { ok?: boolean; error?: unknown };
    if (refusal.ok === false && typeof refusal.error === "string") {
      return body as SuggestionDecision;
    }
    return { ok: true, suggestion: body as SuggestionView };
  }

  /**
   * Poll `pad` while anyone here listens; `stop` ends one listener.
   * `watching` is called once the poll has read the pad: only a change
   * after that read is told as one, so a look for earlier ones must come
   * after it, or one made in between is missed until a wait times out.
   */
  #follow(pad: string, stop: () => void, watching?: () => void): () => void {
    if (!this.#polls.has(pad) && !this.#closed) {
      const poll = new AbortController();
      this.#polls.set(pad, poll);
      void this.#poll(pad, poll.signal);
    }
    if (watching !== undefined && this.#watched.has(pad)) {
      queueMicrotask(watching);
    } else if (watching !== undefined) {
      const waiters = this.#waiters.get(pad) ?? [];
      waiters.push(watching);
      this.#waiters.set(pad, waiters);
    }
    return () => {
      stop();
      if (this.#decisions.has(pad) || this.#changes.has(pad)) return;
      this.#polls.get(pad)?.abort();
      this.#polls.delete(pad);
      this.#watched.delete(pad);
      this.#waiters.delete(pad);
    };
  }

  async #poll(pad: string, signal: AbortSignal): Promise<void> {
    let since = -1;
    let statuses: Map<string, string> | undefined;
    while (!signal.aborted) {
      let polled: Polled;
      try {
        polled = await this.#link.get<Polled>(
          `suggestions/${
            encodeURIComponent(pad)
          }?since=${since}&wait=${WAIT_MS}`,
          { waitMs: WAIT_MS, signal },
        );
      } catch {
        if (signal.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        continue;
      }
      if (signal.aborted) return;
      const changed = polled.changes !== since;
      since = polled.changes;
      const now = new Map(polled.records.map((r) => [r.id, r.status]));
      for (const record of polled.records) {
        const before = statuses?.get(record.id);
        if (statuses === undefined || before === record.status) continue;
        if (record.status !== "pending") this.#decided(record);
        this.#changes.tell(pad, record);
      }
      if (changed && statuses !== undefined) {
        // Something changed that no status says (a record carried, gone).
        this.#changes.tell(pad, undefined);
      }
      statuses = now;
      if (!this.#watched.has(pad)) {
        this.#watched.add(pad);
        for (const watching of this.#waiters.get(pad) ?? []) watching();
        this.#waiters.delete(pad);
      }
    }
  }

  /**
   * Tell a decision; an accepted one once it is claimed, so that the call
   * it wakes (an agent's next undo) finds the edit its agent's own.
   */
  #decided(record: SuggestionEntry): void {
    const tell = () => this.#decisions.tell(record.pad, record);
    if (record.status !== "accepted") return tell();
    Promise.resolve(this.#claim(record)).then(tell, tell);
  }
}

// What the tools ask of suggestions, wherever they are kept: by the pad
// server (its agent API, shared by every agent process on it) or by this
// process's own store (memory, or Redis for replicas) when the pad server
// offers no agent API, as a real Rustpad. The first call probes which.

import type {
  SuggestionDecision,
  SuggestionEntry,
  SuggestionList,
  SuggestionRecord,
} from "../rustpad/suggestion_views.ts";
import type { HoldRequest } from "./_suggestion_views.ts";

/** How long a subscription waits to probe again after a failed probe. */
export const PROBE_RETRY_MS = 1000;

/** Told of a decision (the record) or any change (maybe none named). */
export type ChangeListener = (record: SuggestionEntry | undefined) => void;

/** The suggestions of one backend, wherever they are kept. */
export interface Suggestions {
  /**
   * Hold an operation built on `request.session`'s server text.
   *
   * @throws {Error} Naming the bound or share, when one is reached.
   */
  hold(request: HoldRequest): Promise<SuggestionRecord>;
  /** The pad's suggestions as people see them, each entry bounded. */
  list(pad: string): Promise<SuggestionList>;
  /** The pad's records as agents read them: no operations, diffs cut. */
  records(
    pad: string,
  ): Promise<{ revision: number; records: SuggestionEntry[] }>;
  /** Accept or reject a pending suggestion as `by`. Final. */
  decide(
    pad: string,
    id: string,
    verdict: "accept" | "reject",
    by: string | undefined,
  ): Promise<SuggestionDecision>;
  /** Withdraw a pending suggestion; only the agent that made it may. */
  withdraw(pad: string, id: string, agent: string): Promise<SuggestionDecision>;
  /**
   * Be told of each decision on `pad`; returns the unsubscribe. `watching`,
   * if given, is called once every decision made from then on reaches
   * `listener` (a poll has read the pad's current records): a look for
   * earlier decisions made after it misses none.
   */
  onDecision(
    pad: string,
    listener: (record: SuggestionEntry) => void,
    watching?: () => void,
  ): () => void;
  /**
   * Be told of every hold and decision on `pad`; returns the unsubscribe.
   * `watching`, if given, is called as for `onDecision`.
   */
  onChange(
    pad: string,
    listener: ChangeListener,
    watching?: () => void,
  ): () => void;
  /** Stop timers and polls. */
  close(): void;
}

/**
 * The suggestions of the pad server when it offers them, else of this
 * process: chosen by `choose` on first use (and again after a failed
 * probe, so a pad server not up yet is asked again).
 */
export class ChosenSuggestions implements Suggestions {
  readonly #choose: () => Promise<Suggestions>;
  #chosen: Promise<Suggestions> | undefined;
  #closed = false;

  constructor(choose: () => Promise<Suggestions>) {
    this.#choose = choose;
  }

  /** Where they are kept, once probed. */
  which(): Promise<Suggestions> {
    const chosen = this.#chosen ??= this.#choose();
    chosen.catch(() => {
      if (this.#chosen === chosen) this.#chosen = undefined;
    });
    return chosen;
  }

  async hold(request: HoldRequest): Promise<SuggestionRecord> {
    return await (await this.which()).hold(request);
  }

  async list(pad: string): Promise<SuggestionList> {
    return await (await this.which()).list(pad);
  }

  async records(
    pad: string,
  ): Promise<{ revision: number; records: SuggestionEntry[] }> {
    return await (await this.which()).records(pad);
  }

  async decide(
    pad: string,
    id: string,
    verdict: "accept" | "reject",
    by: string | undefined,
  ): Promise<SuggestionDecision> {
    return await (await this.which()).decide(pad, id, verdict, by);
  }

  async withdraw(
    pad: string,
    id: string,
    agent: string,
  ): Promise<SuggestionDecision> {
    return await (await this.which()).withdraw(pad, id, agent);
  }

  onDecision(
    pad: string,
    listener: (record: SuggestionEntry) => void,
    watching?: () => void,
  ): () => void {
    return this.#later((chosen) => chosen.onDecision(pad, listener, watching));
  }

  onChange(
    pad: string,
    listener: ChangeListener,
    watching?: () => void,
  ): () => void {
    return this.#later((chosen) => chosen.onChange(pad, listener, watching));
  }

  close(): void {
    this.#closed = true;
    void this.#chosen?.then((chosen) => chosen.close(), () => {});
  }

  /**
   * Subscribe once chosen; the unsubscribe works before that too. A failed
   * probe (the pad server not up yet) is tried again every
   * {@linkcode PROBE_RETRY_MS} until it succeeds or the subscriber stops:
   * a wait begun then still hears the decisions made once it is up.
   */
  #later(subscribe: (chosen: Suggestions) => () => void): () => void {
    let stop: (() => void) | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const attempt = () => {
      if (stopped || this.#closed) return;
      this.which().then((chosen) => {
        if (!stopped && !this.#closed) stop = subscribe(chosen);
      }, () => {
        if (stopped || this.#closed) return;
        retry = setTimeout(attempt, PROBE_RETRY_MS);
        Deno.unrefTimer(retry);
      });
    };
    attempt();
    return () => {
      stopped = true;
      clearTimeout(retry);
      stop?.();
    };
  }
}

// The fuzzer's model of the agent's markers: which should be in the pad
// after every call, given what each call answered. A call that reported
// success must show its marker exactly once, one that reported failure must
// have changed no marker, and "unknown" may have done either.

import type { Answer } from "./_round.ts";

export type Outcome = "applied" | "unchanged" | "failed" | "unknown";

/** What a call does to the markers when it is applied. */
export interface Effect {
  added: string[];
  removed: string[];
}

export class AgentModel {
  readonly problems: string[] = [];
  readonly outcomes: Record<Outcome, number> = {
    applied: 0,
    unchanged: 0,
    failed: 0,
    unknown: 0,
  };
  /** Undos that answered 'applied' and changed no marker. */
  undoNoops = 0;
  readonly #log: string[];
  #expected = new Set<string>();
  /** Applied effects, oldest first, for undo. */
  readonly #stack: Effect[] = [];
  readonly #revisions: number[] = [];
  /** False once an unknown outcome leaves the server's undo list unsure. */
  #undoKnown = true;

  constructor(log: string[]) {
    this.#log = log;
  }

  expected(): string[] {
    return [...this.#expected].sort();
  }

  /** One of the markers expected now, by a fraction. */
  pick(fraction: number): string | undefined {
    const markers = this.expected();
    return markers[Math.floor(fraction * markers.length)];
  }

  /** A revision an earlier call reported, `back` calls ago. */
  baseRevision(back: number): number | undefined {
    return this.#revisions[this.#revisions.length - 1 - back];
  }

  /** Take a write call's answer; `observed` is the server's markers now. */
  settle(
    tool: string,
    answer: Answer,
    observed: string[],
    effect: Effect,
  ): void {
    this.#record(tool, answer);
    const after = apply(this.#expected, effect);
    if (answer.outcome === "applied") {
      this.#expected = after;
      this.#stack.push(effect);
      this.check(`${tool} reported success`, observed);
    } else if (answer.outcome === "unknown") {
      this.#undoKnown = false;
      if (same(observed, after)) {
        this.#expected = after;
        this.#stack.push(effect);
      } else {
        this.check(`${tool} reported an unknown outcome`, observed);
      }
    } else {
      this.check(`${tool} reported ${answer.outcome}`, observed);
    }
  }

  /** Take an undo's answer: it must reverse one of the agent's edits. */
  settleUndo(answer: Answer, observed: string[]): void {
    this.#record("undo_last_edit", answer);
    if (answer.outcome === "failed" || answer.outcome === "unchanged") {
      return this.check(`undo_last_edit reported ${answer.outcome}`, observed);
    }
    if (answer.outcome === "unknown") this.#undoKnown = false;
    if (same(observed, this.#expected)) {
      // Known: an undo whose rebased inverse is empty (the edit's text was
      // replaced since) answers 'applied' and changes nothing. Counted and
      // logged, not failed; tests/fuzz_findings_test.ts pins it down.
      if (answer.outcome === "applied") {
        this.undoNoops++;
        this.#log.push("  (the undo changed no marker)");
      }
      return;
    }
    for (let i = this.#stack.length - 1; i >= 0; i--) {
      const { added, removed } = this.#stack[i]!;
      const undone = apply(this.#expected, { added: removed, removed: added });
      if (same(observed, undone)) {
        this.#stack.splice(i, 1);
        this.#expected = undone;
        return;
      }
    }
    if (this.#undoKnown) {
      this.check("undo_last_edit reversed none of the agent's edits", observed);
    } else {
      this.#log.push(`  (undo list unsure: markers now ${observed.join(" ")})`);
      this.#expected = new Set(observed);
    }
  }

  /** The server's markers must be the expected ones, each once. */
  check(where: string, observed: string[]): void {
    if (same(observed, this.#expected)) return;
    this.problems.push(
      `${where}, but the pad holds markers [${observed.join(" ")}] where [${
        this.expected().join(" ")
      }] were expected`,
    );
    this.#expected = new Set(observed); // report each divergence once
  }

  #record(tool: string, answer: Answer): void {
    this.outcomes[answer.outcome]++;
    if (answer.outcome === "applied" && answer.revision !== undefined) {
      this.#revisions.push(answer.revision);
    }
    this.#log.push(
      `${tool} -> ${answer.outcome}: ${
        answer.text.split("\n")[0]!.slice(
          0,
          answer.outcome === "unknown" ? 600 : 160,
        )
      }`,
    );
  }
}

function apply(markers: Set<string>, effect: Effect): Set<string> {
  const next = new Set(markers);
  for (const marker of effect.removed) next.delete(marker);
  for (const marker of effect.added) next.add(marker);
  return next;
}

/** Whether the observed markers are exactly these, none twice. */
function same(observed: string[], expected: Set<string>): boolean {
  return observed.length === expected.size &&
    observed.every((marker) => expected.has(marker)) &&
    new Set(observed).size === observed.length;
}

// What one fuzzer round does, as data: drawn from a seed, replayable from
// JSON, and shrinkable (fewer people, keystrokes, calls and faults) so that
// a failing round can be printed as a small replay.

import { Random } from "../_random.ts";
import type { Keystroke } from "./_person.ts";

/** A fault the pad server injects before the agent's next call. */
export type Fault =
  | { type: "drop"; when: "before-apply" | "after-apply" }
  | { type: "stall" }
  | { type: "ack-delay"; ms: number }
  | { type: "history-delay"; ms: number }
  | { type: "departure-delay"; ms: number }
  | { type: "frame-delay"; ms: number }
  | { type: "restart" };

/** A write tool call of the agent; markers and tokens are chosen live. */
export type Call =
  | { tool: "append_to_document" }
  | { tool: "replace_in_document"; pick: number }
  | { tool: "set_document" }
  | { tool: "edit_document"; pick: number; baseBack: number }
  | { tool: "undo_last_edit" };

export type Step =
  | { kind: "fault"; fault: Fault }
  | { kind: "call"; call: Call; delayMs: number };

export interface Plan {
  seed: number;
  /** RUSTPAD_TIMEOUT_MS of the agent. */
  timeoutMs: number;
  /** The pad's text when the round starts (no markers). */
  initial: string;
  /** Each person's keystrokes. */
  people: Keystroke[][];
  /** The agent's calls and the faults before them, in order. */
  steps: Step[];
}

const TYPED = ["a", "b", " ", "\n", "é", "🎉", "\u200d", "x"];

/** The round of `seed`, with only the tools the server lists. */
export function planFor(seed: number, tools: ReadonlySet<string>): Plan {
  const random = new Random(seed);
  const timeoutMs = 250;
  const initial = Array.from(
    { length: random.int(12) },
    () => random.pick(TYPED),
  ).join("");
  const people = Array.from(
    { length: random.between(1, 5) },
    () =>
      Array.from({ length: random.between(2, 12) }, (): Keystroke => ({
        delayMs: random.int(10),
        kind: random.next() < 0.65 ? "insert" : "delete",
        at: random.next(),
        char: random.pick(TYPED),
      })),
  );
  const calls: Call["tool"][] = [
    "append_to_document",
    "append_to_document",
    "replace_in_document",
    "set_document",
    "edit_document",
    "undo_last_edit",
  ].filter((tool) => tools.has(tool)) as Call["tool"][];
  const steps: Step[] = [];
  for (let i = random.between(2, 6); i > 0; i--) {
    if (random.next() < 0.45) {
      steps.push({ kind: "fault", fault: fault(random, timeoutMs) });
    }
    const tool = random.pick(calls);
    const call: Call = tool === "replace_in_document"
      ? { tool, pick: random.next() }
      : tool === "edit_document"
      ? { tool, pick: random.next(), baseBack: random.int(3) }
      : { tool };
    steps.push({ kind: "call", call, delayMs: random.int(15) });
  }
  return { seed, timeoutMs, initial, people, steps };
}

function fault(random: Random, timeoutMs: number): Fault {
  // Half the delays outlast the agent's timeout, half do not.
  const ms = () => random.pick([timeoutMs / 2, timeoutMs * 2]);
  switch (random.int(8)) {
    case 0:
      return { type: "drop", when: "before-apply" };
    case 1:
      return { type: "drop", when: "after-apply" };
    case 2:
      return { type: "stall" };
    case 3:
      return { type: "ack-delay", ms: ms() };
    case 4:
      return { type: "history-delay", ms: ms() };
    case 5:
      return { type: "departure-delay", ms: ms() };
    case 6:
      return { type: "frame-delay", ms: random.between(1, 20) };
    default:
      return { type: "restart" };
  }
}

/** Smaller plans to try, the biggest cuts first. */
export function* shrinkCandidates(plan: Plan): Generator<Plan> {
  for (let i = 0; i < plan.people.length; i++) {
    yield { ...plan, people: plan.people.toSpliced(i, 1) };
  }
  for (let i = plan.steps.length - 1; i >= 0; i--) {
    yield { ...plan, steps: plan.steps.toSpliced(i, 1) };
  }
  for (let p = 0; p < plan.people.length; p++) {
    const keys = plan.people[p]!;
    if (keys.length > 1) {
      const halved = keys.slice(0, Math.ceil(keys.length / 2));
      yield { ...plan, people: plan.people.with(p, halved) };
    }
  }
  if (plan.initial !== "") yield { ...plan, initial: "" };
}

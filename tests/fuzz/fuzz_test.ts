// The fuzzer: seeded rounds in which 1 to 5 people type and delete at
// random while the agent calls the write tools and the pad server injects
// faults (edits dropped before or after applying, stalled, late
// acknowledgements, histories and departures, slow frames, a restart with
// persistence). After every round everyone holds the server's text, every
// call that reported success shows its marker exactly once and every call
// that reported failure changed nothing; each round is a test step, so the
// sanitizers check it leaked nothing. A failing round is shrunk and printed
// as a replay.
//
//   deno task fuzz --rounds 2000 [--seed N]    a long run
//   deno task fuzz --replay '<plan JSON>'      replay one printed round

import { parseArgs } from "node:util";
import { type Plan, planFor, shrinkCandidates } from "./_plan.ts";
import { type RoundReport, runRound } from "./_round.ts";
import { connect } from "../_mcp.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    rounds: { type: "string", default: "100" },
    seed: { type: "string", default: "1" },
    replay: { type: "string" },
  },
});
const ROUNDS = Number(args.values.rounds);
const FIRST_SEED = Number(args.values.seed);
/** Time a failing round may spend looking for a smaller failing plan. */
const SHRINK_BUDGET_MS = 60_000;

async function listedTools(): Promise<Set<string>> {
  await using harness = await connect();
  const { tools } = await harness.client.listTools();
  return new Set(tools.map((tool) => tool.name));
}

/** A smaller plan that still fails, tried twice each (timing varies). */
async function shrink(plan: Plan): Promise<[Plan, RoundReport]> {
  let smallest = plan;
  let report = await runRound(plan);
  const deadline = performance.now() + SHRINK_BUDGET_MS;
  for (let progress = true; progress && performance.now() < deadline;) {
    progress = false;
    for (const candidate of shrinkCandidates(smallest)) {
      if (performance.now() > deadline) break;
      for (let attempt = 0; attempt < 2; attempt++) {
        const result = await runRound(candidate);
        if (result.problems.length > 0) {
          [smallest, report, progress] = [candidate, result, true];
          break;
        }
      }
      if (progress) break;
    }
  }
  return [smallest, report];
}

function failure(plan: Plan, report: RoundReport): Error {
  return new Error(
    [
      `Round of seed ${plan.seed} failed:`,
      ...report.problems.map((problem) => `  - ${problem}`),
      "What happened:",
      ...report.log.map((line) => `  ${line}`),
      "Replay with:",
      `  deno task fuzz --replay '${JSON.stringify(plan)}'`,
    ].join("\n"),
  );
}

Deno.test("fuzz: people, agent calls and server faults never lose nor double an edit", async (t) => {
  if (args.values.replay !== undefined) {
    const plan: Plan = JSON.parse(args.values.replay);
    const report = await runRound(plan);
    if (report.problems.length > 0) throw failure(plan, report);
    return;
  }
  const tools = await listedTools();
  const totals = {
    applied: 0,
    unchanged: 0,
    failed: 0,
    unknown: 0,
    undoNoops: 0,
  };
  /** What the "unknown" answers said, for the closing note. */
  const unknowns = new Set<string>();
  let passed = 0;
  const started = performance.now();
  for (let seed = FIRST_SEED; seed < FIRST_SEED + ROUNDS; seed++) {
    const plan = planFor(seed, tools);
    const ok = await t.step(`seed ${seed}`, async () => {
      const report = await runRound(plan);
      for (const [outcome, count] of Object.entries(report.outcomes)) {
        totals[outcome as keyof typeof totals] += count;
      }
      totals.undoNoops += report.undoNoops;
      for (const line of report.log) {
        if (line.includes(" -> unknown: ")) {
          unknowns.add(`seed ${seed}: ${line}`);
        }
      }
      if (report.problems.length === 0) return;
      const [smallest, smallReport] = await shrink(plan);
      throw failure(
        smallReport.problems.length > 0 ? smallest : plan,
        smallReport.problems.length > 0 ? smallReport : report,
      );
    });
    if (ok) passed++;
  }
  console.error(
    `fuzz: ${passed} of ${ROUNDS} rounds passed in ${
      Math.round((performance.now() - started) / 1000)
    } s; call outcomes ${JSON.stringify(totals)}; tools ${
      [...tools].filter((tool) => /document|undo/.test(tool)).join(", ")
    }${[...unknowns].slice(0, 10).map((line) => `\n  ${line}`).join("")}`,
  );
});

// The last accepted ratios of bench/speed.ts (bench/speed_baseline.json),
// so that a row that gets slower is said, never passed over in silence.
//
// The rule: a row has regressed when its ratio is more than a quarter above
// the accepted one (runs on the 2-core machine vary by about a quarter from
// one to the next, see docs/benchmarks.md), and has improved when it is more
// than a quarter below. `--accept` writes this run's ratios as the new
// accepted ones: do it after a quiet run whose figures you stand by.

/** A row of the table, as far as its ratio goes. */
interface Row {
  what: string;
  floor: string;
  ms: number;
  floorMs: number;
}

/** How far above the accepted ratio a row may be before it has regressed. */
export const NOISE = 0.25;
const FILE = new URL("./speed_baseline.json", import.meta.url);

/** The accepted ratios, by row key, and when they were accepted. */
interface Baseline {
  accepted: string;
  rule: string;
  ratios: Record<string, number>;
}

/** A row's key in the file: what is timed, against which floor. */
export function rowKey(row: Row): string {
  return `${row.what} / ${row.floor}`;
}

/** The accepted ratios, or none when the file is not there yet. */
export async function readBaseline(): Promise<Map<string, number>> {
  try {
    const baseline = JSON.parse(await Deno.readTextFile(FILE)) as Baseline;
    return new Map(Object.entries(baseline.ratios));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return new Map();
    throw error;
  }
}

/**
 * The run's closing lines: its regressions (each as `printRows` words it),
 * or that there are none.
 */
export function regressionsReport(regressions: readonly string[]): string {
  const heading = `Regressions (ratio over ${1 + NOISE}x the accepted one)`;
  if (regressions.length === 0) return `${heading}: none.`;
  return `${heading}:\n  ${regressions.join("\n  ")}\n` +
    "The accepted ratios may come from another machine: `deno task bench:against <commit>` times that commit's server and this one in turn, here.";
}

/** What a ratio is against the accepted one (none accepted: "new"). */
export function verdict(
  ratio: number,
  accepted: number | undefined,
): "new" | "same" | "regressed" | "improved" {
  if (accepted === undefined) return "new";
  if (ratio > accepted * (1 + NOISE)) return "regressed";
  if (ratio < accepted / (1 + NOISE)) return "improved";
  return "same";
}

/**
 * Write the ratios of `rows` as the accepted ones; rows not in this run
 * (such as with `--start`) keep theirs.
 */
export async function acceptRows(rows: readonly Row[]): Promise<void> {
  const kept = Object.fromEntries(await readBaseline());
  const now = new Date().toISOString();
  const replaced = new Set(rows.map(rowKey));
  const others = Object.keys(kept).filter((key) => !replaced.has(key));
  // Rows kept from an earlier acceptance keep its word beside this one's.
  const previous = others.length === 0
    ? undefined
    : await Deno.readTextFile(FILE).then(
      (text) => (JSON.parse(text) as Baseline).accepted,
      () => undefined,
    );
  const baseline: Baseline = {
    accepted: previous === undefined
      ? now
      : `${previous}; ${now}: ${rows.length} rows of that run (${
        rows[0] === undefined ? "none" : rows[0].what
      }, ...)`,
    rule:
      `a row has regressed when its ratio is more than ${NOISE} above the accepted one (ratio > accepted * ${
        1 + NOISE
      })`,
    ratios: {
      ...kept,
      ...Object.fromEntries(
        rows.map((row) => [rowKey(row), round(row.ms / row.floorMs)]),
      ),
    },
  };
  await Deno.writeTextFile(FILE, `${JSON.stringify(baseline, null, 2)}\n`);
}

function round(ratio: number): number {
  return Math.round(ratio * 100) / 100;
}

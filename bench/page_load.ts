/**
 * The editor page's weight and load time in a real headless Chromium
 * (`tests/pad_server/_browser.ts`): each run opens a pad in a fresh browser
 * context (nothing cached) and reads, from the page's own performance
 * entries, the bytes that crossed the wire (gzip) and decoded, and the time
 * from navigation to the pad's text shown (`rustpad:first-text`) and to its
 * highlighting (`rustpad:highlighted`, when the page has it). Two pads: one
 * without a language (what every page loads) and one in Rust (its parser
 * too). The median of the runs is printed for each.
 *
 * Run: `deno run -A bench/page_load.ts [runs]` (default 7 runs).
 *
 * @module
 */

import { startPadServer } from "../src/pad_server/mod.ts";
import { Browser } from "../tests/pad_server/_browser.ts";

const SAMPLE = `fn main() {
    let greeting = "hello";
    for n in 0..3 {
        println!("{greeting} {n}");
    }
}
`;

interface Load {
  wireBytes: number;
  decodedBytes: number;
  requests: number;
  firstTextMs: number;
  highlightedMs: number | null;
}

const MEASURE = `(() => {
  const entries = [
    ...performance.getEntriesByType("navigation"),
    ...performance.getEntriesByType("resource"),
  ];
  const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  return {
    wireBytes: entries.reduce((sum, entry) => sum + entry.transferSize, 0),
    decodedBytes: entries.reduce((sum, entry) => sum + entry.decodedBodySize, 0),
    requests: entries.length,
    firstTextMs: mark("rustpad:first-text"),
    highlightedMs: mark("rustpad:highlighted"),
  };
})()`;

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Open `padId` in `runs` fresh contexts; print the medians. */
async function measure(
  browser: Browser,
  url: string,
  padId: string,
  runs: number,
): Promise<void> {
  const loads: Load[] = [];
  for (let run = 0; run < runs; run++) {
    const page = await browser.newPage();
    await page.goto(`${url}/#${padId}`);
    await page.waitFor(
      `performance.getEntriesByName("rustpad:first-text").length`,
      "the pad's text",
    );
    // The highlighting, where the page has it, comes a moment later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    loads.push(await page.evaluate<Load>(MEASURE));
    await page.send("Page.close").catch(() => {});
  }
  const highlighted = loads.flatMap((load) =>
    load.highlightedMs === null ? [] : [load.highlightedMs]
  );
  console.log(
    `${padId} pad, ${runs} runs (median): ${
      median(loads.map((load) => load.wireBytes))
    } bytes on the wire (gzip), ${
      median(loads.map((load) => load.decodedBytes))
    } decoded, ${
      median(loads.map((load) => load.requests))
    } requests; first text ${
      median(loads.map((load) => load.firstTextMs)).toFixed(0)
    } ms${
      highlighted.length === 0
        ? ""
        : `, highlighted ${median(highlighted).toFixed(0)} ms`
    }`,
  );
}

if (import.meta.main) {
  const runs = Number(Deno.args[0] ?? 7);
  await using server = await startPadServer({
    pads: {
      plain: { text: SAMPLE },
      rust: { text: SAMPLE, language: "rust" },
    },
  });
  await using browser = await Browser.launch();
  await measure(browser, server.url, "plain", runs);
  await measure(browser, server.url, "rust", runs);
}

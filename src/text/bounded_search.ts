/**
 * A search that cannot freeze the server: a regular expression runs in a
 * separate `deno run` process without permissions, killed when it takes
 * too long (a pattern such as `(a+)+$` backtracks for ages on the wrong
 * text, and JavaScript cannot interrupt a running match). A Web Worker
 * would not do: Deno's `worker.terminate()` leaves a thread busy in
 * JavaScript spinning (denoland/deno#35657). A literal search is linear, so
 * it runs in place.
 *
 * The process is the `deno` that runs the server ({@linkcode Deno.execPath})
 * running `search_process.ts` next to this module, found relative to
 * `import.meta.url` (a file in a checkout, or a JSR URL); a `deno compile`
 * binary runs itself with `SEARCH_PROCESS_FLAG` instead, which `src/cli.ts`
 * hands to `runSearchProcess`. Either way the server needs `--allow-run`
 * for regular expressions.
 *
 * @module
 */

import {
  SEARCH_PROCESS_FLAG,
  type SearchReply,
  type SearchRequest,
} from "./search_process.ts";
import {
  compilePattern,
  type SearchOptions,
  type SearchResult,
  searchText,
} from "./search.ts";

/** How long a regular-expression search may run, in milliseconds. */
export const SEARCH_TIME_LIMIT_MS = 2000;

/**
 * Search like {@linkcode searchText}, giving up on a regular expression
 * after `timeLimitMs`. The pattern is checked first, so a syntax error
 * costs no worker.
 *
 * @param text The text to search.
 * @param pattern A literal string, or a regular expression with `regex`.
 * @param options How to search.
 * @param timeLimitMs How long a regular expression may run.
 * @returns The matches, as {@linkcode searchText} gives them.
 * @throws {SyntaxError} If `regex` is set and the pattern is invalid; the
 * message names the problem.
 * @throws {RangeError} If the regular expression runs out of time.
 *
 * @example A pattern that would backtrack for ever is stopped
 * ```ts
 * import { searchBounded } from "./bounded_search.ts";
 * import assert from "node:assert/strict";
 *
 * const found = await searchBounded("a-b-c", "\\w", { regex: true });
 * assert.equal(found.totalMatches, 3);
 * await assert.rejects(
 *   searchBounded("a".repeat(30_000) + "!", "(a+)+$", { regex: true }, 200),
 *   /ran for over 200 ms/,
 * );
 * ```
 */
export async function searchBounded(
  text: string,
  pattern: string,
  options: SearchOptions = {},
  timeLimitMs: number = SEARCH_TIME_LIMIT_MS,
): Promise<SearchResult> {
  if (!options.regex) return searchText(text, pattern, options);
  try {
    compilePattern(pattern, options);
  } catch (error) {
    throw new SyntaxError(
      `Cannot search as the pattern is not a valid JavaScript regular expression (u flag): ${
        (error as Error).message
      }. Fix it, or pass regex: false to search for the text literally`,
    );
  }
  return await inProcess({ text, pattern, options }, timeLimitMs);
}

/** `deno run` of the search module, or a compiled binary running itself. */
const PROCESS_ARGS = Deno.build.standalone ? [SEARCH_PROCESS_FLAG] : [
  "run",
  "--quiet",
  "--no-prompt",
  "--no-config",
  "--no-lock",
  new URL("./search_process.ts", import.meta.url).href,
];

async function inProcess(
  request: SearchRequest,
  timeLimitMs: number,
): Promise<SearchResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(Deno.execPath(), {
      args: PROCESS_ARGS,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    throw new Error(
      `Cannot run a regular-expression search as this server cannot start its search process: ${
        (error as Error).message
      }. Search literally (regex: false), or run the server with --allow-run`,
      { cause: error },
    );
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeLimitMs);
  try {
    const [output] = await Promise.all([
      child.output(),
      new Response(JSON.stringify(request)).body?.pipeTo(child.stdin)
        .catch(() => {}), // The process died early: its status says why.
    ]);
    if (timedOut) {
      throw new RangeError(
        `Cannot finish the search as the regular expression ran for over ${timeLimitMs} ms on this text, likely backtracking without end (as nested quantifiers like (a+)+ do): simplify the pattern or search literally`,
      );
    }
    const decoder = new TextDecoder();
    if (!output.success) {
      throw new Error(
        `Cannot finish the search as its process failed with exit code ${output.code}: ${
          decoder.decode(output.stderr).trim()
        }`,
      );
    }
    const reply = JSON.parse(decoder.decode(output.stdout)) as SearchReply;
    if (!reply.ok) {
      throw new Error(`Cannot finish the search as ${reply.message}`);
    }
    return reply.result;
  } finally {
    clearTimeout(timer);
  }
}

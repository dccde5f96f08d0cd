// The process a regular-expression search runs in (`deno run` with no
// permissions), so a pattern that backtracks for ever can be killed while
// the server keeps answering other calls. A Web Worker cannot do this:
// Deno's `worker.terminate()` does not stop a thread busy in JavaScript
// (denoland/deno#35657), so the spinning thread would outlive the search.
//
// Protocol: one JSON `SearchRequest` on stdin; one JSON `SearchReply` on
// stdout. Run as `deno run search_process.ts`, or as a `deno compile`
// binary of the server given `SEARCH_PROCESS_FLAG` (see src/cli.ts).

import { type SearchOptions, type SearchResult, searchText } from "./search.ts";

/** What the process is asked. */
export interface SearchRequest {
  text: string;
  pattern: string;
  options: SearchOptions;
}

/** What it answers: the result, or the message of the error it hit. */
export type SearchReply =
  | { ok: true; result: SearchResult }
  | { ok: false; message: string };

/**
 * The hidden first argument that makes a `deno compile` binary of this
 * server run one search instead (it has no `deno` to run this module with).
 */
export const SEARCH_PROCESS_FLAG = "--rustpad-mcp-search-process";

function answer(request: SearchRequest): SearchReply {
  try {
    return {
      ok: true,
      result: searchText(request.text, request.pattern, request.options),
    };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/**
 * Answer the one request on stdin; returns the exit code.
 *
 * @example
 * ```ts ignore
 * // echo '{"text":"ab","pattern":"b","options":{}}' | deno run search_process.ts
 * Deno.exit(await runSearchProcess());
 * ```
 */
export async function runSearchProcess(): Promise<number> {
  const request = await new Response(Deno.stdin.readable).json();
  await new Response(JSON.stringify(answer(request))).body?.pipeTo(
    Deno.stdout.writable,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await runSearchProcess());

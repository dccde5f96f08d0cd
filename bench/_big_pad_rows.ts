// The big-pad rows of bench/speed.ts: whole `get_document`, `get_changes`
// of the whole pad against it, a 2,000-line `read_lines`, literal and
// regex `search_document` and a 10-edit `edit_document` on the busy pad,
// each against a bare `GET` of the same text.

import type { RawRpc } from "./_raw_rpc.ts";
import { type Row, timedInside } from "./_speed_tools.ts";

/**
 * Time the big-pad calls on pad `busy` (whose text is `busyText`), `runs`
 * each, inside the server; `bareGet` is the bare GET's time.
 */
export async function bigPadRows(
  rpc: RawRpc,
  busy: string,
  busyText: string,
  bareGet: number,
  runs: number,
): Promise<{ rows: Row[]; notes: string[]; getDocument: number }> {
  const rows: Row[] = [];
  const row = (
    what: string,
    ms: number,
    floor: string,
    floorMs: number,
    target: number,
  ) => rows.push({ what, ms, floor, floorMs, target });
  const getDocument = await timedInside(
    runs,
    () => rpc.timeTool("get_document", { id: busy }),
  );
  row("get_document, whole busy pad", getDocument, "bare GET", bareGet, 2);
  // Who wrote each line of the whole busy pad (its 10,000-edit history), from
  // the authorship index kept as operations arrive, against reading it all.
  const getChanges = await timedInside(
    runs,
    () => rpc.timeTool("get_changes", { id: busy, start_line: 1 }),
  );
  row(
    "get_changes, whole busy pad",
    getChanges,
    "get_document, whole",
    getDocument,
    3,
  );
  const readLines = await timedInside(
    runs,
    () =>
      rpc.timeTool("read_lines", { id: busy, start_line: 1, line_count: 2000 }),
  );
  row("read_lines, 2,000 lines", readLines, "bare GET", bareGet, 2);
  const literal = await timedInside(
    runs,
    () => rpc.timeTool("search_document", { id: busy, pattern: "needle" }),
  );
  row("search_document, literal", literal, "bare GET", bareGet, 2);
  const regex = await timedInside(
    runs,
    () =>
      rpc.timeTool("search_document", {
        id: busy,
        pattern: "ne+dle|[0-9]{4}x",
        regex: true,
      }),
  );
  row("search_document, regex, no match", regex, "bare GET", bareGet, 10);
  const found = await rpc.call("tools/call", {
    name: "search_document",
    arguments: { id: busy, pattern: "ab+c|é😀", regex: true },
  }) as { structuredContent: { total_matches: number } };
  const regexFound = await timedInside(
    runs,
    () =>
      rpc.timeTool("search_document", {
        id: busy,
        pattern: "ab+c|é😀",
        regex: true,
      }),
  );
  row("search_document, regex, matches", regexFound, "bare GET", bareGet, 10);
  const lines = busyText.split("\n").length;
  const edit = await timedInside(
    runs,
    (i) =>
      rpc.timeTool("edit_document", {
        id: busy,
        edits: Array.from({ length: 10 }, (_, k) => ({
          start_line: 1 + k * 50,
          end_line: k * 50,
          new_string: `edit ${i} ${k}`,
        })),
      }),
  );
  row("edit_document, 10 line edits", edit, "bare GET", bareGet, 2);
  return {
    rows,
    notes: [
      `the busy pad has ${lines} lines`,
      `the matching regex finds ${found.structuredContent.total_matches} matches`,
    ],
    getDocument,
  };
}

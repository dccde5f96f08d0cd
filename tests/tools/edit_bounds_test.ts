// What one `edit_document` call may cost, driven over Streamable HTTP: a
// batch whose edits must overlap is refused before any search, and the
// matches of a batch are bounded by the pad's length as they are found.

import assert from "node:assert/strict";
import { connectHttp, startHttp } from "../_http.ts";
import { structured } from "../_mcp.ts";

const FULL_PAD = 262_144;

Deno.test("`edit_document` refuses 100 replace_all edits of the same old_string on a full pad before searching, and the server answers meanwhile", async () => {
  await using http = await startHttp();
  await using agent = await connectHttp(http.server.url);
  structured(
    await agent.call("append_to_document", {
      id: "full",
      text: "a".repeat(FULL_PAD),
    }),
  );
  const edits = Array.from(
    { length: 100 },
    () => ({ old_string: "a", new_string: "", replace_all: true }),
  );
  const refused = await agent.call("edit_document", {
    id: "full",
    edits,
    dry_run: true,
  });
  assert.equal(refused.isError, true);
  const [part] = refused.content as { text: string }[];
  assert.match(
    part!.text,
    /Cannot apply edits\[0\] and edits\[1\] as they overlap wherever they apply at revision 1: both have the same old_string/,
  );
  // The same for an old_string inside another's.
  const nested = await agent.call("edit_document", {
    id: "full",
    edits: [
      { old_string: "aaa", new_string: "b", replace_all: true },
      { old_string: "a", new_string: "c", replace_all: true },
    ],
    dry_run: true,
  });
  assert.match(
    (nested.content as { text: string }[])[0]!.text,
    /edits\[0\] and edits\[1\] as they overlap wherever edits\[0\] applies at revision 1: edits\[1\]'s old_string occurs inside edits\[0\]'s/,
  );
  const health = await fetch(new URL("/healthz", http.server.url));
  assert.equal(health.status, 200);
  await health.body?.cancel();
  // One such edit is a whole pad's worth of matches, and is allowed.
  const one = structured(
    await agent.call("edit_document", {
      id: "full",
      edits: [edits[0]],
      dry_run: true,
    }),
  );
  assert.equal(one.status, "dry_run");
  assert.equal(one.length, 0);
  assert.equal(http.pads.text("full").length, FULL_PAD);
});

Deno.test("`edit_document` stops searching once a batch matches more places than the pad has units, naming the edit that passed the bound", async () => {
  await using http = await startHttp();
  await using agent = await connectHttp(http.server.url);
  const text = "\r\n".repeat(1000);
  structured(await agent.call("append_to_document", { id: "crlf", text }));
  // Line breaks escape the check before the search (they may match as
  // CRLF), so only the bound refuses this: 1000 + 1000 + 999 places.
  const refused = await agent.call("edit_document", {
    id: "crlf",
    edits: [
      { old_string: "\n", new_string: "", replace_all: true },
      { old_string: "\r\n", new_string: "", replace_all: true },
      { old_string: "\n\r", new_string: "", replace_all: true },
    ],
    dry_run: true,
  });
  assert.equal(refused.isError, true);
  assert.match(
    (refused.content as { text: string }[])[0]!.text,
    /Cannot apply edits\[2\] as the old_strings up to it match more places at revision 1 than the text has UTF-16 units, so some overlap: current count is over 2000/,
  );
  // Edits that cover separate text, together a whole pad's worth, apply.
  const split = structured(
    await agent.call("edit_document", {
      id: "crlf",
      edits: [
        { old_string: "\r", new_string: "", replace_all: true },
        { old_string: "\n", new_string: "", replace_all: true },
      ],
      dry_run: true,
    }),
  );
  assert.equal(split.status, "dry_run");
  assert.equal(split.length, 0);
});

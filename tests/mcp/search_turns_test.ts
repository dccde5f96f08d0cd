// A regex search runs in the server's own process, synchronously; searches
// take turns so that other calls, other sessions and other pads are
// answered between two of them, however many arrive at once.

import assert from "node:assert/strict";
import { connectHttp, startHttp } from "../_http.ts";
import { structured } from "../_mcp.ts";

Deno.test("over HTTP, a call made while 20 searches run is answered before the last of them", async () => {
  await using http = await startHttp();
  await using searcher = await connectHttp(http.server.url);
  await using reader = await connectHttp(http.server.url);
  structured(
    await searcher.call("append_to_document", {
      id: "big",
      text: "a".repeat(200_000) + "!",
    }),
  );
  structured(
    await reader.call("append_to_document", { id: "small", text: "hi" }),
  );
  const order: string[] = [];
  const searches = Array.from(
    { length: 20 },
    (_, n) =>
      searcher.call("search_document", {
        id: "big",
        pattern: "(a+)+$",
        regex: true,
      }).then((result) => {
        assert.equal(structured(result).total_matches, 0);
        order.push(`search ${n}`);
      }),
  );
  // Let the searches reach the server first.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const read = reader.call("get_document", { id: "small" }).then((result) => {
    assert.equal(structured(result).text, "hi");
    order.push("read");
  });
  await Promise.all([...searches, read]);
  assert.ok(order.indexOf("read") < order.length - 1, order.join(", "));
});

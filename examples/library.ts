// The package as a library, without MCP: open a live session on a pad,
// append to it as an OT operation (so what people type meanwhile is kept),
// and read it back over HTTP. Against RUSTPAD_URL when set, otherwise
// against the Rustpad-compatible server started on loopback.
//
//   deno run -A examples/library.ts
//   RUSTPAD_URL=https://rustpad.io deno run -A examples/library.ts my-pad
//
// Inside this repository the package imports itself by name (deno.json);
// outside it, put "jsr:" before each "@rustpad-mcp/server".

import {
  PadSession,
  RustpadHttpClient,
  TextOperation,
} from "@rustpad-mcp/server";
import { startPadServer } from "@rustpad-mcp/server/testing";

const padId = Deno.args[0] ?? "library-example";
const configured = Deno.env.get("RUSTPAD_URL");
await using local = configured === undefined
  ? await startPadServer()
  : undefined;
const baseUrl = configured ?? local!.url;

const session = await PadSession.open(baseUrl, padId, {
  user: { name: "library-example", hue: 120 },
});
try {
  // An operation covers the whole text: keep everything, then insert.
  const first = await session.submit(
    new TextOperation().retain(session.length).insert(
      "Hello from the library.\n",
    ),
  );
  console.log(`appended: revision ${first.revision}`);
  // Another, rebased by the session over whatever arrived meanwhile.
  await session.submit(
    new TextOperation().retain(session.length).insert("Second line.\n"),
  );
  console.log(`${session.length} code points, revision ${session.revision}`);
} finally {
  await session.close();
}

const text = await new RustpadHttpClient(baseUrl).getText(padId);
console.log(`pad "${padId}" over HTTP:\n${text}`);

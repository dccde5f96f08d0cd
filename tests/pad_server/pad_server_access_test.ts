// Who may use the pad server: pages of other sites (Origin) and names
// rebound to loopback (Host) get 403 on the page, the text and the socket;
// the server's own origin, IP addresses, localhost, the public name and
// the allowed origins are served.

import assert from "node:assert/strict";
import { startPadServer } from "../../src/pad_server/mod.ts";
import { openRaw } from "./_crowd.ts";
import { RawConnection } from "../_tcp.ts";

/** The status line and body of a GET of `path` with these fields. */
async function get(
  url: string,
  path: string,
  fields: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const fieldLines = Object.entries(fields)
    .map(([name, value]) => `${name}: ${value}\r\n`).join("");
  using raw = await RawConnection.open(
    new URL(url),
    `GET ${path} HTTP/1.1\r\n${fieldLines}connection: close\r\n\r\n`,
  );
  const text = await raw.untilClosed();
  return { status: Number(text.split(" ")[1]), text };
}

Deno.test("a socket opened by a page of another site gets 403 and its edit is never applied", async () => {
  await using server = await startPadServer({ pads: { a: { text: "mine" } } });
  const { conn, status } = await openRaw(server.url, "a", {
    origin: "https://evil.example",
  });
  conn.close();
  assert.match(status, /^HTTP\/1\.1 403 /);
  assert.equal(server.text("a"), "mine");
  const own = await openRaw(server.url, "a", { origin: server.url });
  own.conn.close();
  assert.match(own.status, /^HTTP\/1\.1 101 /);
});

Deno.test("a foreign Host (DNS rebinding) gets 403 on the text, the stats and the page; IP addresses and localhost are served", async () => {
  await using server = await startPadServer({ pads: { a: { text: "mine" } } });
  const port = new URL(server.url).port;
  for (const path of ["/api/text/a", "/api/stats", "/"]) {
    const foreign = await get(server.url, path, {
      host: `evil.example:${port}`,
    });
    assert.equal(foreign.status, 403, path);
    assert.match(
      foreign.text,
      /Cannot serve the request as its Host is not this server's name: current Host is "evil\.example:\d+"/,
    );
    assert.doesNotMatch(foreign.text, /mine/);
  }
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
    const own = await get(server.url, "/api/text/a", { host });
    assert.equal(own.status, 200, host);
    assert.match(own.text, /mine$/);
  }
});

Deno.test("the page is refused to another site's origin and may be framed only by its own and the allowed origins", async () => {
  await using server = await startPadServer({
    allowedOrigins: ["https://app.example"],
    publicHost: "pads.example.com",
  });
  const host = new URL(server.url).host;
  const foreign = await get(server.url, "/", {
    host,
    origin: "https://evil.example",
  });
  assert.equal(foreign.status, 403);
  assert.match(foreign.text, /current Origin is "https:\/\/evil\.example"/);
  const allowed = await get(server.url, "/", {
    host,
    origin: "https://app.example",
  });
  assert.equal(allowed.status, 200);
  assert.match(
    allowed.text,
    /content-security-policy: [^\r]*frame-ancestors 'self' https:\/\/app\.example\r\n/,
  );
  const named = await get(server.url, "/api/stats", {
    host: "pads.example.com",
  });
  assert.equal(named.status, 200);
});

Deno.test("startPadServer refuses an allowed origin that is not scheme://host[:port]", async () => {
  await assert.rejects(
    startPadServer({ allowedOrigins: ["app.example"] }),
    /Cannot allow the origin as it is not scheme:\/\/host\[:port\]: current value is "app\.example"/,
  );
});

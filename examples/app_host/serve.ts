// Serves the MCP Apps test host (host_page.ts) on loopback, beside a pad
// server and this MCP server over Streamable HTTP, all in this process:
// the page at `/`, the MCP endpoint forwarded at `/mcp` (one origin, so
// the page's client needs no CORS). The pad server's page shows the same
// pads, and decides the same suggestions.
//
//   deno task app:host [PORT]    then open the URL it prints

import { bundleChunks } from "../../scripts/bundle_editor.ts";
import {
  type Backend,
  BackendDesk,
  createBackend,
  loadConfig,
  serveHttp,
} from "../../mod.ts";
import { startPadServer } from "../../src/pad_server/mod.ts";

/** A running test host. */
export interface AppHost extends AsyncDisposable {
  /** The host page. */
  readonly url: URL;
  /** The pad server's base URL, without a final `/`. */
  readonly padsUrl: string;
  /** The MCP endpoint, for other clients. */
  readonly mcpUrl: URL;
  /** The MCP server's shared state. */
  readonly backend: Backend;
}

const PAGE = (script: string) =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Rustpad view: MCP Apps test host</title>
<style>
:root { color-scheme: light dark; font: 14px/1.4 system-ui, sans-serif; }
:root[data-theme="dark"] { color-scheme: dark; }
:root[data-theme="light"] { color-scheme: light; }
body { margin: 0 auto; max-width: 980px; padding: 0.75rem; }
#view iframe { width: 100%; height: 420px; border: 1px solid #8884; border-radius: 6px; }
#context, #ask-text { white-space: pre-wrap; font: 12px ui-monospace, monospace; }
#ask { max-width: 640px; }
</style>
</head>
<body>
<p id="status">Connecting to the MCP server…</p>
<div id="view"></div>
<dialog id="ask"><p><strong>The Rustpad server asks you</strong></p>
<pre id="ask-text"></pre>
<button id="ask-yes" type="button">Confirm</button>
<button id="ask-no" type="button">Decline</button></dialog>
<h3>Model context from the view</h3>
<pre id="context">(nothing)</pre>
<script type="module">${script.replaceAll("</script", "<\\/script")}</script>
</body>
</html>
`;

/** Start a pad server, the MCP server and the host page on loopback. */
export async function startAppHost(
  options: { port?: number; pads?: Record<string, { text: string }> } = {},
): Promise<AppHost> {
  const script = (await bundleChunks(
    new URL("host_page.ts", import.meta.url),
    false,
  )).get("host_page.js")!;
  const html = PAGE(script);
  // The pad server starts first; its page decides what the backend holds.
  const desk = new BackendDesk();
  const pads = await startPadServer({
    ...(options.pads && { pads: options.pads }),
    suggestions: desk,
  });
  const backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
  desk.attach(backend);
  const mcp = serveHttp(backend, { port: 0, log: () => {} });
  const host = Deno.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    onListen: () => {},
  }, async (request) => {
    const { pathname, search } = new URL(request.url);
    if (pathname === "/mcp") {
      const answer = await fetch(new URL(`/mcp${search}`, mcp.url), {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      return new Response(answer.body, answer);
    }
    return new Response(html, {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  });
  const url = new URL(`http://127.0.0.1:${host.addr.port}/`);
  return {
    url,
    padsUrl: pads.url,
    mcpUrl: mcp.url,
    backend,
    async [Symbol.asyncDispose]() {
      await host.shutdown();
      await mcp.shutdown();
      await backend.close();
      await pads.close();
    },
  };
}

if (import.meta.main) {
  const port = Number(Deno.args[0] ?? 8787);
  const host = await startAppHost({
    port,
    pads: { welcome: { text: "Select some text here: the model sees it.\n" } },
  });
  console.error(
    `MCP Apps test host at ${host.url.href}?pad=welcome (pads at ${host.padsUrl}/#welcome; MCP at ${host.mcpUrl.href}). Ctrl-C stops it`,
  );
}

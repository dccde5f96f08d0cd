import { RawRpc } from "../_raw_rpc.ts";
import { spawnServer } from "../_speed_tools.ts";
const pad = await spawnServer([`${Deno.cwd()}/src/pad_server/pad_server.ts`]);
const rpc = await RawRpc.start(`${Deno.cwd()}/mod.ts`, { RUSTPAD_URL: pad.url, RUSTPAD_CONFIRM: "never" });
const n = Number(Deno.args[0] ?? 3000);
const method = Deno.args[1] ?? "append";
for (let i = 0; i < 300; i++) await rpc.timeTool("append_to_document", { id: "p", text: "a line\n" });
const t = performance.now();
for (let i = 0; i < n; i++) {
  if (method === "ping") await rpc.call("ping", {});
  else await rpc.timeTool("append_to_document", { id: "p", text: "a line\n" });
}
console.log(method, ((performance.now() - t) / n).toFixed(3));
await rpc.close();
Deno.exit(0);

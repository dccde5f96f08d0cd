import { connect } from "./_mcp.ts";
import { INSTRUCTIONS } from "../src/mod.ts";
await using h = await connect();
const { tools } = await h.client.listTools();
const sizes = tools.map((t) => [t.name, t.name.length + (t.title ?? "").length + (t.description ?? "").length + JSON.stringify(t.inputSchema).length] as const);
console.error(INSTRUCTIONS.length + sizes.reduce((s, [, n]) => s + n, 0), "instructions", INSTRUCTIONS.length, sizes.map(([n, s]) => `${n} ${s}`).join(", "));
await Deno.writeTextFile(Deno.args[0], JSON.stringify({ instructions: INSTRUCTIONS, tools }, null, 2));

await import("zod"); await import("@modelcontextprotocol/server"); await import("@modelcontextprotocol/server/stdio");
const a = performance.now();
await import(Deno.args[0]);
console.log(Deno.args[0], (performance.now() - a).toFixed(1));

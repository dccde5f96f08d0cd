await import("zod"); await import("@modelcontextprotocol/server"); await import("@modelcontextprotocol/server/stdio");
const files = Deno.args;
for (const f of files) { const a = performance.now(); await import(`/work/main/${f}`); console.log(f.padEnd(40), (performance.now() - a).toFixed(1)); }

await import("zod"); await import("@modelcontextprotocol/server"); await import("@modelcontextprotocol/server/stdio");
const a = performance.now();
await import("/work/main/mod.ts");
console.log("ours", (performance.now() - a).toFixed(1));

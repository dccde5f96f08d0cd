const t0 = performance.now();
const mod = await import("../../mod.ts");
const t1 = performance.now();
console.error("import", (t1 - t0).toFixed(1));
const srv = await import("../../src/mcp/server.ts");
const tools = await import("../../src/tools/mod.ts");
const config = mod.loadConfig({ RUSTPAD_URL: "http://127.0.0.1:1" });
let a = performance.now();
const backend = mod.createBackend(config);
console.error("createBackend", (performance.now() - a).toFixed(1));
for (let i = 0; i < 3; i++) {
  a = performance.now();
  tools.toolsFor(config);
  console.error("toolsFor", (performance.now() - a).toFixed(1));
}
for (let i = 0; i < 3; i++) {
  a = performance.now();
  const m = srv.buildServer("legacy", { ...tools.createToolContext(backend), config });
  console.error("buildServer", (performance.now() - a).toFixed(1));
}
await backend.close();

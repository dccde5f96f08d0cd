// interleaved start timing: spawn -> initialize -> tools/list answer, raw JSON-RPC
const scripts = Deno.args;
const runs = Number(Deno.env.get("RUNS") ?? 15);
async function once(script: string): Promise<number> {
  const t0 = performance.now();
  const child = new Deno.Command(Deno.execPath(), { args: ["run", "-A", script], stdin: "piped", stdout: "piped", stderr: "null", env: { RUSTPAD_URL: "http://127.0.0.1:9" } }).spawn();
  const w = child.stdin.getWriter(); const enc = new TextEncoder();
  await w.write(enc.encode(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }) + "\n"));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = ""; let ms = -1;
  outer: while (true) {
    const { value, done } = await reader.read(); if (done) break; buf += value;
    while (buf.includes("\n")) {
      const line = buf.slice(0, buf.indexOf("\n")); buf = buf.slice(buf.indexOf("\n") + 1);
      if (line.includes('"id":1,') || line.includes('"id":1}')) await w.write(enc.encode(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n" + JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) + "\n"));
      else if (line.includes('"id":2')) { ms = performance.now() - t0; break outer; }
    }
  }
  await w.close().catch(() => {}); reader.cancel().catch(() => {});
  const timer = setTimeout(() => child.kill(), 3000); await child.status; clearTimeout(timer);
  return ms;
}
const times = scripts.map((): number[] => []);
for (const s of scripts) await once(s);
for (let r = 0; r < runs; r++) for (let k = 0; k < scripts.length; k++) { const i = (r + k) % scripts.length; times[i].push(await once(scripts[i])); }
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
scripts.forEach((s, i) => console.log(s.padEnd(36), med(times[i]).toFixed(0), "min", Math.min(...times[i]).toFixed(0)));

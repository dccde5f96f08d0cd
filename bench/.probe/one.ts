const child = new Deno.Command(Deno.execPath(), { args: ["run", "-A", "--v8-flags=--cpu-profiler-sampling-interval=100", "--cpu-prof", "--cpu-prof-dir=/tmp/prof/s", "mod.ts"], stdin: "piped", stdout: "piped", stderr: "null", env: { RUSTPAD_URL: "http://127.0.0.1:9" } }).spawn();
const w = child.stdin.getWriter(); const enc = new TextEncoder();
await w.write(enc.encode(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }) + "\n"));
const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
let buf = "";
outer: while (true) { const { value, done } = await reader.read(); if (done) break; buf += value;
  while (buf.includes("\n")) { const line = buf.slice(0, buf.indexOf("\n")); buf = buf.slice(buf.indexOf("\n") + 1);
    if (line.includes('"id":1')) await w.write(enc.encode(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n" + JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) + "\n"));
    else if (line.includes('"id":2')) break outer; } }
await w.close(); await child.status;

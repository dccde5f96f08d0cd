import { HttpListener } from "../src/http/mod.ts";
const listener = new HttpListener({ hostname: "127.0.0.1", port: 0, maxConnections: 64, maxBodyBytesInFlight: 4 * 8388608, requestTimeoutMs: 20000, keepAliveMs: 5000, maxBodyBytes: 8388608, maxHeadBytes: 8192,
  handler: async (request) => { let n = 0; try { for await (const p of request.body!) n += p.length; } catch (e) { return new Response(String(e), { status: 413 }); } return new Response(String(n)); },
  refuse: (status, message) => new Response(message, { status }), log: () => {} });
listener.start();
const conn = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
const enc = new TextEncoder();
const t0 = performance.now();
const reading = (async () => { const b = new Uint8Array(65536); let t = ""; try { for (let n = await conn.read(b); n !== null; n = await conn.read(b)) t += new TextDecoder().decode(b.subarray(0, n)); } catch {} return t; })();
await conn.write(enc.encode(`POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n`));
const block = enc.encode("1\r\n[\r\n".repeat(10_000));
try { for (let i = 0; i < Number(Deno.args[0] ?? 12); i++) { let w = 0; while (w < block.length) w += await conn.write(block.subarray(w)); } await conn.write(enc.encode("0\r\n\r\n")); } catch (e) { console.log("write", (e as Error).message); }
const text = await reading;
console.log(performance.now() - t0, text.slice(0, 12), text.slice(-80));
await listener.close(0);

// A TCP proxy on loopback in front of a pad server that holds back the
// first HTTP request whose request line starts with a given prefix until
// the test releases it: the way to put a person's action between two of an
// agent's requests, in that order, every time. Requests are read head by
// head (a body by its content-length, as every request of the agent's
// link carries one; a chunked body is not read); after a WebSocket upgrade
// the connection is piped as it is.

const HEAD_END = "\r\n\r\n";

/** The proxy, the request it holds, and how to let it go. */
export interface HoldingProxy extends AsyncDisposable {
  /** The proxy's URL, to give the agent in place of the pad server's. */
  url: string;
  /** Resolves when the request is held. */
  held: Promise<void>;
  /** Send the held request on (or let it through when it comes). */
  release(): void;
}

/** Start a proxy to `target` holding the first request starting `prefix`. */
export function holdingProxy(target: string, prefix: string): HoldingProxy {
  const upstream = new URL(target);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held = Promise.withResolvers<void>();
  const released = Promise.withResolvers<void>();
  let holding = true;
  const conns = new Set<Deno.Conn>();
  const serve = async (client: Deno.Conn): Promise<void> => {
    const server = await Deno.connect({
      hostname: upstream.hostname,
      port: Number(upstream.port),
    });
    conns.add(client);
    conns.add(server);
    const back = server.readable.pipeTo(client.writable).catch(() => {});
    const writer = server.writable.getWriter();
    let buffer: Uint8Array<ArrayBuffer> = new Uint8Array(0);
    let raw = false;
    try {
      for await (const chunk of client.readable) {
        if (raw) {
          await writer.write(chunk);
          continue;
        }
        buffer = join(buffer, chunk);
        for (;;) {
          const text = new TextDecoder().decode(buffer);
          const end = text.indexOf(HEAD_END);
          if (end === -1) break;
          const head = text.slice(0, end);
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          const size = new TextEncoder().encode(head + HEAD_END).length +
            length;
          if (buffer.length < size) break;
          if (holding && head.startsWith(prefix)) {
            holding = false;
            held.resolve();
            await released.promise;
          }
          await writer.write(buffer.slice(0, size));
          buffer = buffer.slice(size);
          if (/^upgrade: *websocket/im.test(head)) {
            raw = true;
            if (buffer.length > 0) await writer.write(buffer);
            break;
          }
        }
      }
    } catch {
      // A side closed.
    } finally {
      await writer.close().catch(() => {});
      await back;
      conns.delete(client);
      conns.delete(server);
    }
  };
  const accepting = (async () => {
    for await (const client of listener) void serve(client);
  })().catch(() => {});
  const { port } = listener.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    held: held.promise,
    release: () => released.resolve(),
    async [Symbol.asyncDispose]() {
      released.resolve();
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // Closed already.
        }
      }
      await accepting;
    },
  };
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

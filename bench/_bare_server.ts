// The honest floors of bench/speed.ts, in a process of their own as the pad
// server is: a bare `Deno.serve` that answers `GET /text` with the text of
// the file given and echoes every WebSocket frame at `/echo`. It prints
// its URL on one line and serves until killed.
//
//   deno run -A bench/_bare_server.ts FILE

const text = await Deno.readTextFile(Deno.args[0]!);
const server = Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`http://127.0.0.1:${port}`),
}, (request) => {
  if (request.headers.get("upgrade") === "websocket") {
    const { socket, response } = Deno.upgradeWebSocket(request);
    socket.onmessage = (event) => socket.send(event.data);
    return response;
  }
  return new Response(text, {
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
});
await server.finished;

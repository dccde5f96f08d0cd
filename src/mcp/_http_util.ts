// Small pieces of the HTTP server that need none of its state: telling a
// body of answers from one with calls, noticing when a response body ends,
// and the access-log line.

/** Whether a POST body holds only responses and notifications, no calls. */
export function onlyAnswers(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.length > 0 &&
    messages.every((message) =>
      typeof message === "object" && message !== null &&
      !("id" in message && "method" in message)
    );
}

/** `response` with `done` called once its body ends, fails or is cancelled. */
export function trackBody(response: Response, done: () => void): Response {
  const body = response.body;
  if (body === null) {
    done();
    return response;
  }
  const reader = body.getReader();
  const tracked = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          done();
          controller.close();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    async cancel(reason) {
      done();
      await reader.cancel(reason);
    },
  });
  return new Response(tracked, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** One access-log line: never headers, so never a token. */
export function accessLine(
  request: Request,
  response: Response,
  elapsedMs: number,
): string {
  const path = new URL(request.url).pathname;
  const session = request.headers.get("mcp-session-id") ??
    response.headers.get("mcp-session-id") ?? "-";
  return `rustpad-mcp http: ${request.method} ${path} ${response.status} ${
    Math.round(elapsedMs)
  }ms session=${session.slice(0, 8)}`;
}

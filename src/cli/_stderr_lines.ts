// Lines for stderr, written together: the HTTP server logs a line for
// every request, and under load a write each (console.error's) was its
// costliest system call after the answers themselves. Lines logged in one
// go of the event loop's microtasks are written once that go ends, in the
// order logged, so none waits for later work or outlives an await.

const encoder = new TextEncoder();

/**
 * A `log` that writes its lines to stderr, each followed by a newline,
 * together once the current microtasks have run. A line that cannot be
 * written (stderr closed) is dropped, as the server must go on without it.
 */
export function stderrLines(): (line: string) => void {
  let pending: string[] = [];
  const flush = () => {
    const bytes = encoder.encode(`${pending.join("\n")}\n`);
    pending = [];
    try {
      for (let at = 0; at < bytes.length;) {
        at += Deno.stderr.writeSync(bytes.subarray(at));
      }
    } catch {
      // Nowhere left to say it.
    }
  };
  return (line) => {
    if (pending.push(line) === 1) queueMicrotask(flush);
  };
}

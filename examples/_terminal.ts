// The demo's terminal: questions answered by the person who started it, and
// Ctrl-C as a promise the demo's waits race against.

/** Lines typed at the terminal (or piped in), read one per question. */
export class Terminal {
  #reader: ReadableStreamDefaultReader<string> | undefined;
  #buffered = "";
  #ended = false;

  /**
   * Print `question` and wait for a line: `true` for y or yes (any case),
   * `false` for anything else, or when stdin ends.
   */
  async confirm(question: string): Promise<boolean> {
    return await this.ask(question) === true;
  }

  /**
   * Print `question` and wait for a line: `true` for y or yes (any case),
   * `false` for anything else, `undefined` when stdin ends unanswered.
   */
  async ask(question: string): Promise<boolean | undefined> {
    await Deno.stdout.write(new TextEncoder().encode(`${question} [y/N] `));
    const line = await this.#line();
    // A piped answer is not echoed: show it, so the transcript reads right.
    if (!Deno.stdin.isTerminal()) console.log(line ?? "(no answer)");
    return line === undefined ? undefined : /^\s*y(es)?\s*$/i.test(line);
  }

  async #line(): Promise<string | undefined> {
    this.#reader ??= Deno.stdin.readable
      .pipeThrough(new TextDecoderStream()).getReader();
    while (!this.#buffered.includes("\n") && !this.#ended) {
      const { value, done } = await this.#reader.read();
      if (done) this.#ended = true;
      else this.#buffered += value;
    }
    if (this.#buffered === "") return undefined;
    const end = this.#buffered.indexOf("\n");
    const line = end === -1 ? this.#buffered : this.#buffered.slice(0, end);
    this.#buffered = end === -1 ? "" : this.#buffered.slice(end + 1);
    return line;
  }

  /** Stop reading stdin, so it keeps the process alive no longer. */
  async close(): Promise<void> {
    await this.#reader?.cancel();
  }
}

/** Resolves at the first Ctrl-C (SIGINT); `dispose` stops listening. */
export function interrupted(): { promise: Promise<void>; dispose(): void } {
  const { promise, resolve } = Promise.withResolvers<void>();
  const onSignal = () => resolve();
  Deno.addSignalListener("SIGINT", onSignal);
  return {
    promise,
    dispose: () => Deno.removeSignalListener("SIGINT", onSignal),
  };
}

/** Wait `ms`, or less if `stop` comes first; `true` if it did. */
export async function sleepUnless(
  ms: number,
  stop: Promise<void>,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slept = new Promise<false>((resolve) =>
    timer = setTimeout(() => resolve(false), ms)
  );
  const stopped = await Promise.race([stop.then(() => true as const), slept]);
  clearTimeout(timer);
  return stopped;
}

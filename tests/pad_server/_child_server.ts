// A pad server in a child process (`src/pad_server/pad_server.ts`), so a
// test can kill it with SIGKILL or SIGTERM and start another on the same
// pads file; and a raw typist that appends tokens one at a time, counting
// those acknowledged.

const SCRIPT = new URL("../../src/pad_server/pad_server.ts", import.meta.url);

/** A running child pad server. */
export interface ChildServer {
  readonly url: string;
  readonly child: Deno.ChildProcess;
  /** Everything it wrote to stderr, once it exited. */
  readonly stderr: Promise<string>;
}

/** The command that runs the pad server with `args`. */
export function padServerArgs(...args: string[]): string[] {
  return ["run", "-A", SCRIPT.href, "--port", "0", ...args];
}

/**
 * Spawn `command args` (a pad server, perhaps wrapped) and wait for the URL
 * it prints; rejects with its stderr if it exits first.
 */
export async function spawnServer(
  command: string,
  args: string[],
): Promise<ChildServer> {
  const child = new Deno.Command(command, {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let output = "";
  while (!output.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) {
      await child.status;
      throw new Error(`The pad server exited before its URL: ${await stderr}`);
    }
    output += value;
  }
  // Drain the rest so the child never blocks on a full pipe.
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return { url: output.split("\n")[0]!, child, stderr };
}

/** A pad server on `path` in a child process. */
export function startChild(path: string): Promise<ChildServer> {
  return spawnServer(Deno.execPath(), padServerArgs("--db", path));
}

/**
 * One person on one pad, alone, appending `token(n)` after each of their
 * edits is acknowledged (their own operation echoed in a History).
 */
export class Typist {
  /** Tokens whose edit the server acknowledged, in order. */
  readonly acknowledged: string[] = [];
  /** The History the socket received first: the pad's revision then. */
  joinedAt = -1;
  readonly #socket: WebSocket;
  readonly #token: (n: number) => string;
  #userId = -1;
  #revision = 0;
  #length = 0;
  #pending: string | undefined;
  readonly closed: Promise<void>;

  constructor(url: string, padId: string, token: (n: number) => string) {
    this.#token = token;
    this.#socket = new WebSocket(`${url}/api/socket/${padId}`);
    const { promise, resolve } = Promise.withResolvers<void>();
    this.closed = promise;
    this.#socket.onclose = () => resolve();
    this.#socket.onerror = () => {};
    this.#socket.onmessage = (event) => this.#receive(JSON.parse(event.data));
  }

  #receive(message: Record<string, unknown>): void {
    if ("Identity" in message) {
      this.#userId = message.Identity as number;
      // Its echo comes after the whole initial History: the barrier.
      this.#socket.send('{"CursorData":{"cursors":[],"selections":[]}}');
      return;
    }
    if ("UserCursor" in message) {
      const { id } = message.UserCursor as { id: number };
      if (id === this.#userId && this.joinedAt === -1) this.#joined();
      return;
    }
    if (!("History" in message)) return;
    const { start, operations } = message.History as {
      start: number;
      operations: { id: number; operation: (number | string)[] }[];
    };
    for (const [index, { id, operation }] of operations.entries()) {
      this.#revision = start + index + 1;
      if (this.joinedAt === -1) {
        for (const part of operation) {
          if (typeof part === "string") this.#length += [...part].length;
          else if (part < 0) this.#length += part;
        }
        continue;
      }
      if (id === this.#userId && this.#pending !== undefined) {
        this.acknowledged.push(this.#pending);
        this.#length += this.#pending.length;
        this.#pending = undefined;
      }
    }
    if (this.joinedAt !== -1) this.#next();
  }

  #joined(): void {
    this.joinedAt = this.#revision;
    this.#next();
  }

  #next(): void {
    if (this.#pending !== undefined) return;
    if (this.#socket.readyState !== WebSocket.OPEN) return;
    const text = this.#token(this.acknowledged.length);
    this.#pending = text;
    const operation = this.#length === 0 ? [text] : [this.#length, text];
    this.#socket.send(
      JSON.stringify({ Edit: { revision: this.#revision, operation } }),
    );
  }

  /** Close the socket. */
  close(): void {
    this.#socket.close();
  }
}

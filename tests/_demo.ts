// The demo (examples/demo.ts) as a child process with its own home, its
// terminal piped: what its tests read, answer and interrupt.

import assert from "node:assert/strict";
import { SqlitePadDatabase } from "../src/pad_server/mod.ts";
import type { ScratchHome } from "./cli/_run.ts";

const DEMO = new URL("../examples/demo.ts", import.meta.url).pathname;

/** The demo as a child with its own home, stdin and stdout piped. */
export class Demo implements AsyncDisposable {
  readonly #child: Deno.ChildProcess;
  readonly #reader: ReadableStreamDefaultReader<string>;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  readonly #group: boolean;
  stdout = "";

  /**
   * With `group`, the demo leads a process group of its own (`setsid`), as
   * a shell's foreground job does, so `interrupt` reaches its server too.
   */
  constructor(home: ScratchHome, args: string[], { group = false } = {}) {
    const command = [Deno.execPath(), "run", "-A", DEMO, ...args];
    if (group) command.unshift("setsid");
    this.#group = group;
    this.#child = new Deno.Command(command[0]!, {
      args: command.slice(1),
      env: { NO_COLOR: "1", ...home.env },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#reader = this.#child.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
    this.#stdin = this.#child.stdin.getWriter();
  }

  /** Read stdout until `pattern` matches what was read; its match. */
  async until(pattern: RegExp): Promise<RegExpExecArray> {
    while (true) {
      const found = pattern.exec(this.stdout);
      if (found !== null) return found;
      const { value, done } = await this.#reader.read();
      if (done) {
        assert.fail(`The demo ended before ${pattern}:\n${this.stdout}`);
      }
      this.stdout += value;
    }
  }

  /** Type a line at the demo's terminal. */
  async answer(line: string): Promise<void> {
    await this.#stdin.write(new TextEncoder().encode(`${line}\n`));
  }

  /** Ctrl-C: to the demo, or to its whole group as a terminal sends it. */
  interrupt(): void {
    if (this.#group) Deno.kill(-this.#child.pid, "SIGINT");
    else this.#child.kill("SIGINT");
  }

  /** Read to the end; the exit code. */
  async exit(): Promise<number> {
    await this.#stdin.close().catch(() => {});
    while (true) {
      const { value, done } = await this.#reader.read();
      if (done) break;
      this.stdout += value;
    }
    return (await this.#child.status).code;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
    await this.exit();
  }
}

/** A pad's text as the demo's pads file keeps it. */
export async function keptText(
  home: ScratchHome,
  pad: string,
): Promise<string | undefined> {
  // The pad server is a process of its own, which outlives the demo: stop
  // it, so it writes its pads, before reading the file.
  await home.stopPadServers();
  using database = new SqlitePadDatabase(home.padsFile);
  return database.get(pad)?.text;
}

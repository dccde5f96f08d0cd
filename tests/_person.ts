// A person's editor as a bare WebSocket client: it follows the pad's history
// frame by frame and types one keystroke at a time, each made against the
// revision it has seen, waiting for the echo before the next. The server
// transforms each keystroke over whatever the agent did meanwhile.

import { TextOperation } from "../src/mod.ts";

export class RawPerson implements AsyncDisposable {
  #socket: WebSocket;
  #id: number | undefined;
  #revision = 0;
  #text = "";
  /** Where the person's caret is; moved by every operation, as editors do. */
  #caret = 0;
  #closed: Promise<void>;
  #acked: PromiseWithResolvers<void> | undefined;
  /** Every frame received, in order, for tests that count them. */
  readonly frames: string[] = [];

  private constructor(url: string, pad: string) {
    this.#socket = new WebSocket(
      `${url.replace(/^http/, "ws")}/api/socket/${pad}`,
    );
    this.#closed = new Promise((resolve) =>
      this.#socket.addEventListener("close", () => {
        this.#acked?.reject(new Error("The server closed the person's socket"));
        resolve();
      })
    );
    this.#socket.addEventListener("message", (event) => {
      this.frames.push(event.data);
      const message = JSON.parse(event.data);
      if ("Identity" in message) this.#id = message.Identity;
      if (!("History" in message)) return;
      const { start, operations } = message.History;
      for (const [i, { id, operation }] of operations.entries()) {
        if (start + i < this.#revision) continue;
        const op = TextOperation.fromJSON(operation);
        this.#text = op.apply(this.#text);
        this.#caret = op.transformIndex(this.#caret);
        this.#revision++;
        if (id === this.#id) this.#acked?.resolve();
      }
    });
  }

  static async open(url: string, pad: string): Promise<RawPerson> {
    const person = new RawPerson(url, pad);
    await new Promise((resolve) =>
      person.#socket.addEventListener("open", resolve)
    );
    // Cursor data is echoed only after the initial burst: a barrier.
    const ready = new Promise<void>((resolve) =>
      person.#socket.addEventListener("message", (event) => {
        if (String(event.data).startsWith('{"UserCursor"')) resolve();
      })
    );
    person.#socket.send('{"CursorData":{"cursors":[],"selections":[]}}');
    await ready;
    return person;
  }

  /** Type `text` one code point at a time, the caret first put at `position`. */
  async type(position: number, text: string): Promise<void> {
    this.#caret = position;
    for (const character of text) {
      const caret = this.#caret;
      this.#acked = Promise.withResolvers<void>();
      const length = [...this.#text].length;
      const operation = [caret, character, length - caret].filter((c) =>
        c !== 0
      );
      this.#socket.send(
        JSON.stringify({ Edit: { revision: this.#revision, operation } }),
      );
      await this.#acked.promise;
      // Give the agent's operations room to interleave.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  /** Send one operation on the text seen, and wait for its echo. */
  async edit(operation: TextOperation): Promise<void> {
    this.#acked = Promise.withResolvers<void>();
    this.#socket.send(
      JSON.stringify({
        Edit: { revision: this.#revision, operation: operation.toJSON() },
      }),
    );
    await this.#acked.promise;
  }

  get text(): string {
    return this.#text;
  }

  /** History operations seen. */
  get revision(): number {
    return this.#revision;
  }

  /** This person's user id. */
  get id(): number | undefined {
    return this.#id;
  }

  /** Announce a display name, as an editor does on joining. */
  announce(name: string): void {
    this.#socket.send(JSON.stringify({ ClientInfo: { name, hue: 90 } }));
  }

  /**
   * Announce `name` and wait until the pad server tells it back: from then
   * on the server names this person by it (a decision, say).
   */
  async introduce(name: string): Promise<void> {
    const told = new Promise<void>((resolve) => {
      const heard = (event: MessageEvent) => {
        const info = JSON.parse(event.data).UserInfo;
        if (info?.id === this.#id && info?.info?.name === name) {
          this.#socket.removeEventListener("message", heard);
          resolve();
        }
      };
      this.#socket.addEventListener("message", heard);
    });
    this.announce(name);
    await told;
  }

  /** Put the caret at `position` and tell the pad, as an editor does. */
  moveCursor(position: number): void {
    this.#caret = position;
    this.#socket.send(
      JSON.stringify({ CursorData: { cursors: [position], selections: [] } }),
    );
  }

  /** Send any cursor data, as a hostile editor may (Rustpad sets no limit). */
  sendCursors(cursors: number[], selections: [number, number][]): void {
    this.#socket.send(JSON.stringify({ CursorData: { cursors, selections } }));
  }

  /** Set the pad's language for everyone, as any editor may. */
  sendLanguage(language: string): void {
    this.#socket.send(JSON.stringify({ SetLanguage: language }));
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.#socket.close();
    await this.#closed;
  }
}

// A person for the fuzzer: a raw WebSocket editor that types and deletes
// one code point at a time at random places, never inside nor over an
// agent's marker (so markers stay countable), each edit made against the revision
// it has seen and waited for before the next. It follows the history as the
// server sends it and reconnects whenever the server drops it (a fault, a
// restart). Its text after a final round trip must equal the server's.

import { TextOperation } from "../../src/mod.ts";

/** One keystroke of a plan. */
export interface Keystroke {
  /** Wait this long first, in milliseconds. */
  delayMs: number;
  kind: "insert" | "delete";
  /** Where, as a fraction of the allowed places. */
  at: number;
  /** What to type (insert only). */
  char: string;
}

/**
 * Whether a code point belongs to an agent's marker: markers are pairs of
 * private-use code points of plane 15, new ones for every call, so no diff
 * can keep a marker's character while replacing its neighbour, and people
 * never type them.
 */
export function isMarkerPoint(point: string | undefined): boolean {
  const code = point?.codePointAt(0) ?? 0;
  return code >= 0xf0000 && code <= 0xffffd;
}

/** How long a person waits for an echo before it reconnects. */
const ECHO_WAIT_MS = 600;

export class FuzzPerson {
  readonly #url: string;
  readonly #pad: string;
  #socket: WebSocket | undefined;
  #closed: Promise<void> = Promise.resolve();
  #id: number | bigint | undefined;
  #revision = 0;
  #text = "";
  #waiter:
    | { until: (frame: string) => boolean; resolve: () => void }
    | undefined;
  /** Why this person's copy broke, if a frame did not fit its text. */
  broken: string | undefined;
  /** Edits sent, and how many were cut off by a dropped connection. */
  sent = 0;
  cut = 0;

  constructor(url: string, pad: string) {
    this.#url = url.replace(/^http/, "ws");
    this.#pad = pad;
  }

  get text(): string {
    return this.#text;
  }

  /** Type the plan's keystrokes; resolves once all were tried. */
  async type(keystrokes: readonly Keystroke[]): Promise<void> {
    for (const key of keystrokes) {
      await new Promise((resolve) => setTimeout(resolve, key.delayMs));
      if (!await this.#ensureOpen()) continue;
      const operation = this.#operationFor(key);
      if (operation === undefined) continue;
      this.sent++;
      const acknowledged = this.#wait((frame) => this.#isOwnEcho(frame));
      this.#socket!.send(
        JSON.stringify({
          Edit: { revision: this.#revision, operation: operation.toJSON() },
        }),
      );
      if (!await acknowledged) this.cut++;
    }
  }

  /** Make sure the text is the server's latest: reconnect, round trip. */
  async settle(): Promise<boolean> {
    if (!await this.#ensureOpen()) return false;
    return await this.#roundTrip();
  }

  async close(): Promise<void> {
    this.#socket?.close();
    await this.#closed;
  }

  async #ensureOpen(): Promise<boolean> {
    for (let attempt = 0; attempt < 20; attempt++) {
      if (this.#socket?.readyState === WebSocket.OPEN) return true;
      await this.#closed;
      if (await this.#connect()) return true;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return false;
  }

  async #connect(): Promise<boolean> {
    this.#id = undefined;
    this.#revision = 0;
    this.#text = "";
    const socket = new WebSocket(`${this.#url}/api/socket/${this.#pad}`);
    this.#socket = socket;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#closed = promise;
    socket.onclose = () => {
      this.#waiter?.resolve();
      resolve();
    };
    socket.onerror = () => {};
    socket.onmessage = (event) => {
      try {
        this.#receive(String(event.data));
      } catch (error) {
        // A history that does not fit: the server broke its order. Keep
        // the first such error for the round's verdict.
        this.broken ??= `${(error as Error).message} (frame ${
          String(event.data).slice(0, 120)
        })`;
        socket.close();
      }
    };
    const opened = await new Promise<boolean>((done) => {
      socket.onopen = () => done(true);
      promise.then(() => done(false));
    });
    return opened && await this.#roundTrip();
  }

  /** Cursor data is echoed after everything the server had: a barrier. */
  async #roundTrip(): Promise<boolean> {
    const echoed = this.#wait((frame) =>
      frame.startsWith('{"UserCursor"') &&
      JSON.parse(frame).UserCursor.id === this.#id
    );
    this.#socket!.send('{"CursorData":{"cursors":[],"selections":[]}}');
    return await echoed;
  }

  /** Resolves true when a frame matches, false if the socket closes first. */
  #wait(until: (frame: string) => boolean): Promise<boolean> {
    const socket = this.#socket!;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiter = undefined;
        socket.close();
        resolve(false);
      }, ECHO_WAIT_MS);
      this.#waiter = {
        until,
        resolve: () => {
          clearTimeout(timer);
          this.#waiter = undefined;
          resolve(socket.readyState === WebSocket.OPEN);
        },
      };
    });
  }

  #isOwnEcho(frame: string): boolean {
    if (!frame.startsWith('{"History"')) return false;
    const { operations } = JSON.parse(frame).History;
    return operations.some((o: { id: number }) => o.id === this.#id);
  }

  #receive(frame: string): void {
    const message = JSON.parse(frame);
    if ("Identity" in message) this.#id = message.Identity;
    if ("History" in message) {
      const { start, operations } = message.History;
      for (const [i, { operation }] of operations.entries()) {
        if (start + i < this.#revision) continue;
        this.#text = TextOperation.fromJSON(operation).apply(this.#text);
        this.#revision++;
      }
    }
    if (this.#waiter?.until(frame)) this.#waiter.resolve();
  }

  /** The keystroke as an operation on the current text, if it has a place. */
  #operationFor(key: Keystroke): TextOperation | undefined {
    const points = [...this.#text];
    const allowed: number[] = [];
    // Insert at i: between points i-1 and i, never inside a run of marker
    // points. Delete i: point i, never a marker point.
    for (let i = 0; i <= points.length; i++) {
      const ok = key.kind === "insert"
        ? !(isMarkerPoint(points[i - 1]) && isMarkerPoint(points[i]))
        : i < points.length && !isMarkerPoint(points[i]);
      if (ok) allowed.push(i);
    }
    if (allowed.length === 0) return undefined;
    const at = allowed[Math.floor(key.at * allowed.length)]!;
    const operation = new TextOperation().retain(at);
    if (key.kind === "insert") operation.insert(key.char);
    else operation.delete(1);
    return operation.retain(
      points.length - at - (key.kind === "delete" ? 1 : 0),
    );
  }
}

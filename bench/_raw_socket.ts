// The raw floor of the benchmarks: a bare WebSocket speaking Rustpad's
// protocol with nothing of ours in between (no OT client, no pool), and a
// bare echo socket. It tracks only the revision and the pad's length.

type Component = number | string;

/** A bare socket in one pad. */
export class RawSocket {
  readonly #socket: WebSocket;
  #id: number | undefined;
  #revision = 0;
  #length = 0;
  #waiters: { revision: number; resolve: () => void }[] = [];
  #echo: (() => void) | undefined;
  #ready = Promise.withResolvers<void>();

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.onmessage = (event) => this.#receive(JSON.parse(event.data));
  }

  /**
   * Join `pad` and wait for the whole initial history: the barrier is the
   * echo of an empty cursor, which the server sends after the history.
   */
  static async open(url: string, pad: string): Promise<RawSocket> {
    const socket = new WebSocket(
      `${url.replace(/^http/, "ws")}/api/socket/${pad}`,
    );
    const raw = new RawSocket(socket);
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error(`Cannot open pad ${pad}`));
    });
    socket.send(
      JSON.stringify({ CursorData: { cursors: [], selections: [] } }),
    );
    await raw.#ready.promise;
    return raw;
  }

  /** A socket to the bare echo server's `/echo`. */
  static async echo(url: string): Promise<RawSocket> {
    const socket = new WebSocket(`${url.replace(/^http/, "ws")}/echo`);
    const raw = new RawSocket(socket);
    socket.onmessage = () => raw.#echo?.();
    await new Promise((resolve) => socket.onopen = resolve);
    return raw;
  }

  /** Send a message the size of an edit and wait for it to come back. */
  roundTrip(): Promise<void> {
    const back = new Promise<void>((resolve) => this.#echo = resolve);
    this.#socket.send(
      JSON.stringify({
        Edit: { revision: this.#revision, operation: [1, "x"] },
      }),
    );
    return back;
  }

  /** Append `text` and wait for the server to acknowledge it. */
  append(text: string): Promise<void> {
    return this.pipeline([text]);
  }

  /** Send every append at once, at the same revision, and wait for all. */
  pipeline(texts: string[]): Promise<void> {
    const target = this.#revision + texts.length;
    const done = this.#reach(target);
    for (const text of texts) {
      const operation: Component[] = this.#length > 0
        ? [this.#length, text]
        : [text];
      this.#socket.send(
        JSON.stringify({ Edit: { revision: this.#revision, operation } }),
      );
    }
    return done;
  }

  /** Load a document, then every operation of a history, each a revision. */
  async load(
    document: string,
    operations: readonly { toJSON(): Component[] }[],
  ): Promise<void> {
    const start = this.#revision;
    const done = this.#reach(start + operations.length + 1);
    this.#socket.send(
      JSON.stringify({ Edit: { revision: start, operation: [document] } }),
    );
    operations.forEach((operation, i) => {
      this.#socket.send(JSON.stringify({
        Edit: { revision: start + i + 1, operation: operation.toJSON() },
      }));
    });
    await done;
  }

  /**
   * Join as a person named `name`, with a cursor at code point `cursor`,
   * and wait for the server to echo the cursor.
   */
  announce(name: string, cursor: number): Promise<void> {
    this.#ready = Promise.withResolvers<void>();
    this.#socket.send(JSON.stringify({ ClientInfo: { name, hue: 120 } }));
    this.#socket.send(
      JSON.stringify({ CursorData: { cursors: [cursor], selections: [] } }),
    );
    return this.#ready.promise;
  }

  /**
   * Wait until every message the server sent before now has arrived: the
   * echo of an empty cursor comes after them. An edit timed after it waits
   * for its own revision, not for one another client's edit had taken.
   */
  settle(): Promise<void> {
    this.#ready = Promise.withResolvers<void>();
    this.#socket.send(
      JSON.stringify({ CursorData: { cursors: [], selections: [] } }),
    );
    return this.#ready.promise;
  }

  close(): void {
    this.#socket.close();
  }

  #reach(revision: number): Promise<void> {
    if (this.#revision >= revision) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ revision, resolve }));
  }

  #receive(message: Record<string, unknown>): void {
    if (typeof message.Identity === "number") this.#id = message.Identity;
    const cursor = message.UserCursor as { id: number } | undefined;
    if (cursor !== undefined && cursor.id === this.#id) this.#ready.resolve();
    const history = message.History as
      | { start: number; operations: { operation: Component[] }[] }
      | undefined;
    if (history === undefined) return;
    history.operations.forEach(({ operation }, offset) => {
      if (history.start + offset < this.#revision) return;
      for (const component of operation) {
        if (typeof component === "string") {
          this.#length += [...component].length;
        } else if (component < 0) this.#length += component;
      }
    });
    this.#revision = Math.max(
      this.#revision,
      history.start + history.operations.length,
    );
    this.#waiters = this.#waiters.filter((waiter) => {
      if (waiter.revision > this.#revision) return true;
      waiter.resolve();
      return false;
    });
  }
}

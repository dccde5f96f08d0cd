// A raw WebSocket client for the pad server tests: it records every text
// frame it receives and whether the server closed it.

/** A raw client of one pad: frames in, frames out, nothing interpreted. */
export class TestClient {
  readonly socket: WebSocket;
  /** Every text frame received, in order. */
  readonly frames: string[] = [];
  /** Frames, closes and errors seen: changes whenever something happens. */
  events = 0;
  /** Whether the server closed the socket (the client did not ask to). */
  closedByServer = false;
  /** Whether the close was a handshake: false when the server hung up. */
  closedCleanly: boolean | undefined;
  /** Resolves when the socket is closed, whoever closed it. */
  readonly closed: Promise<void>;
  #closing = false;
  #taken = 0;

  constructor(serverUrl: string, padId: string) {
    this.socket = new WebSocket(`${serverUrl}/api/socket/${padId}`);
    const { promise, resolve } = Promise.withResolvers<void>();
    this.closed = promise;
    this.socket.addEventListener("message", (event) => {
      this.events++;
      if (typeof event.data === "string") this.frames.push(event.data);
    });
    this.socket.addEventListener("close", (event) => {
      this.events++;
      this.closedByServer = !this.#closing;
      this.closedCleanly = event.wasClean;
      resolve();
    });
  }

  /** Whether the socket is closed. */
  get isClosed(): boolean {
    return this.socket.readyState === WebSocket.CLOSED;
  }

  /** Frames received and not yet taken. */
  get unread(): number {
    return this.frames.length - this.#taken;
  }

  /** The frames received since the last call. */
  take(): string[] {
    const frames = this.frames.slice(this.#taken);
    this.#taken = this.frames.length;
    return frames;
  }

  /** Wait until at least `count` frames are unread; returns them all. */
  async next(count = 1): Promise<string[]> {
    await waitUntil(() => this.unread >= count || this.isClosed);
    return this.take();
  }

  send(frame: string | Uint8Array<ArrayBuffer>): void {
    this.socket.send(frame);
  }

  /** Close from the client side and wait until the socket is closed. */
  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CONNECTING) {
      await new Promise((resolve) =>
        this.socket.addEventListener("open", resolve, { once: true })
      );
    }
    if (this.socket.readyState === WebSocket.OPEN) {
      this.#closing = true;
      this.socket.close();
    }
    await this.closed;
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Poll `condition` every few milliseconds until it holds or `timeoutMs`
 * passes; returns whether it held.
 */
export async function waitUntil(
  condition: () => boolean,
  timeoutMs = 2000,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await delay(2);
  }
  return true;
}

/** Wait until none of `clients` has seen anything for `quietMs`. */
export async function waitForQuiet(
  clients: Iterable<TestClient>,
  quietMs: number,
): Promise<void> {
  const count = () => [...clients].reduce((sum, c) => sum + c.events, 0);
  for (let before = -1; before !== count();) {
    before = count();
    await delay(quietMs);
  }
}

// One pad's WebSocket that comes back by itself: after a close it waits,
// doubling the wait per failure up to 30 s (with a little jitter so many
// pages do not reconnect in step), until the owner closes it for good.

/** Where the connection stands. */
export type ConnectionStatus = "connecting" | "connected" | "disconnected";

/** What the socket tells its owner. */
export interface SocketHandlers {
  /** A new connection opened. */
  open(): void;
  /** A text frame arrived. */
  frame(data: string): void;
  /** The connection went away or is being made. */
  status(status: "connecting" | "disconnected"): void;
}

const MAX_RECONNECT_MS = 30_000;

/** A WebSocket to one URL, reopened after every close. */
export class ReconnectingSocket {
  readonly #url: string;
  readonly #firstDelayMs: number;
  readonly #handlers: SocketHandlers;
  #socket: WebSocket | undefined;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(url: string, firstDelayMs: number, handlers: SocketHandlers) {
    this.#url = url;
    this.#firstDelayMs = firstDelayMs;
    this.#handlers = handlers;
    this.#connect();
  }

  /** Send a frame if a connection is open; whether it was sent. */
  send(frame: string): boolean {
    const socket = this.#socket;
    if (socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(frame);
    return true;
  }

  /** The connection works: the next failure waits the shortest time. */
  succeeded(): void {
    this.#failures = 0;
  }

  /** Drop this connection; a new one follows after the usual wait. */
  drop(): void {
    this.#socket?.close();
  }

  /** Connect now instead of waiting, if no connection is open or opening. */
  reconnect(): void {
    if (this.#closed || this.#socket !== undefined) return;
    clearTimeout(this.#timer);
    this.#failures = 0;
    this.#connect();
  }

  /** Close for good. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#socket?.close();
  }

  #connect(): void {
    this.#handlers.status("connecting");
    const socket = new WebSocket(this.#url);
    this.#socket = socket;
    socket.onopen = () => this.#handlers.open();
    socket.onmessage = (event) => {
      if (typeof event.data === "string") this.#handlers.frame(event.data);
    };
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      if (this.#closed) return;
      this.#handlers.status("disconnected");
      const delay = Math.min(
        MAX_RECONNECT_MS,
        this.#firstDelayMs * 2 ** this.#failures,
      );
      this.#failures++;
      this.#timer = setTimeout(
        () => this.#connect(),
        delay * (1 + Math.random() / 4),
      );
    };
  }
}

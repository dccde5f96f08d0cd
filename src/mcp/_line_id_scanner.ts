// Finds the top-level "id" and "method" of a JSON object streaming by, in
// constant memory, so a stdio line too long to hold can still be answered
// with an error for its own request id. Clients often write "id" after
// "params", at the far end of the line, so the whole line is scanned.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
/** The longest key or id kept; longer ones are not "id" or not usable. */
const MAX_TOKEN = 256;

/** Scans the bytes of one line for its top-level `id` and `method`. */
export class LineIdScanner {
  /** Bytes scanned. */
  bytes = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #topIsObject: boolean | undefined;
  /** At depth 1: whether the next string is a value, not a key. */
  #afterColon = false;
  #key: number[] | undefined;
  #lastKey = "";
  #idToken: number[] | undefined;
  #idIsString = false;
  #id: string | number | null | undefined;
  #idBad = false;
  #hasMethod = false;

  /** Scan the next bytes of the line. */
  scan(bytes: Uint8Array): void {
    this.bytes += bytes.length;
    for (let i = 0; i < bytes.length; i++) {
      // Inside a string nothing is kept (a deep value, not the id): jump
      // to the next quote or backslash, so long texts cost a native search.
      if (
        this.#inString && !this.#escaped && this.#key === undefined &&
        this.#idToken === undefined
      ) {
        const quote = bytes.indexOf(QUOTE, i);
        const backslash = bytes.indexOf(BACKSLASH, i);
        const next = quote === -1
          ? backslash
          : backslash === -1
          ? quote
          : Math.min(quote, backslash);
        if (next === -1) return;
        i = next;
      }
      this.#step(bytes[i]!);
    }
  }

  #step(byte: number): void {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (byte === BACKSLASH) this.#escaped = true;
      else if (byte === QUOTE) {
        this.#inString = false;
        this.#endString();
        return;
      }
      this.#keep(
        this.#key ?? (this.#idIsString ? this.#idToken : undefined),
        byte,
      );
      return;
    }
    if (this.#topIsObject === undefined && byte > 0x20) {
      this.#topIsObject = byte === 0x7b;
    }
    if (this.#idToken !== undefined && !this.#idIsString) {
      if (/[-+.0-9eEa-z]/.test(String.fromCharCode(byte))) {
        this.#keep(this.#idToken, byte);
        return;
      }
      this.#endBareId();
    }
    switch (byte) {
      case QUOTE:
        this.#inString = true;
        if (this.#depth === 1 && !this.#afterColon) this.#key = [];
        else if (this.#valueOfId()) {
          this.#idToken = [];
          this.#idIsString = true;
        }
        return;
      case 0x7b:
      case 0x5b:
        if (this.#valueOfId()) this.#idBad = true;
        this.#depth++;
        return;
      case 0x7d:
      case 0x5d:
        this.#depth--;
        return;
      case COLON:
        if (this.#depth === 1) {
          this.#afterColon = true;
          if (this.#lastKey === "method") this.#hasMethod = true;
        }
        return;
      case COMMA:
        if (this.#depth === 1) {
          this.#afterColon = false;
          this.#lastKey = "";
        }
        return;
      default:
        if (byte > 0x20 && this.#valueOfId()) {
          this.#idToken = [byte];
          this.#idIsString = false;
        }
    }
  }

  #valueOfId(): boolean {
    return this.#depth === 1 && this.#afterColon && this.#lastKey === "id" &&
      this.#id === undefined && this.#idToken === undefined;
  }

  #keep(token: number[] | undefined, byte: number): void {
    if (token !== undefined && token.length <= MAX_TOKEN) token.push(byte);
  }

  #endString(): void {
    if (this.#key !== undefined) {
      this.#lastKey = this.#key.length > MAX_TOKEN
        ? ""
        : String.fromCharCode(...this.#key);
      this.#key = undefined;
      return;
    }
    if (this.#idToken !== undefined && this.#idIsString) {
      const token = this.#idToken;
      this.#idToken = undefined;
      try {
        this.#id = token.length > MAX_TOKEN ? undefined : JSON.parse(
          `"${new TextDecoder().decode(new Uint8Array(token))}"`,
        );
      } catch {
        this.#id = undefined;
      }
      if (this.#id === undefined) this.#idBad = true;
    }
  }

  #endBareId(): void {
    const text = String.fromCharCode(...this.#idToken!);
    this.#idToken = undefined;
    const value = text === "null" ? null : Number(text);
    if (value === null || Number.isFinite(value)) this.#id = value;
    else this.#idBad = true;
  }

  /**
   * The id to answer with: the request's own id; `null` when the line is no
   * object or its id cannot be read; `undefined` when it needs no answer (a
   * notification, or a client's answer to a server request).
   */
  requestId(): string | number | null | undefined {
    if (this.#idToken !== undefined && !this.#idIsString) this.#endBareId();
    if (this.#topIsObject !== true || this.#idBad) return null;
    if (this.#hasMethod) return this.#id === undefined ? undefined : this.#id;
    return this.#id === undefined ? null : undefined;
  }
}

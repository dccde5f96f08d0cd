// A long string as JSON writes it, in UTF-8 bytes, without its quotes: the
// text a big read's answer carries twice. In a small script, JSON.stringify
// and then encodeInto took about 2.4 ms for the busy pad's 215,865
// characters (V8's escaping slows on text mixing ASCII and astral
// characters); encoding natively and escaping the bytes, about 0.85 ms.
// The bytes are the ones JSON.stringify gives: `"` and `\` escaped, the
// control characters as \b \t \n \f \r or \u00xx, everything else as
// is. A string holding half of a surrogate pair (which UTF-8 cannot carry,
// and JSON.stringify writes as \udxxx) goes through JSON.stringify.

const encoder = new TextEncoder();

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LOWER_U = 0x75;
const ZERO = 0x30;
const HEX_DIGITS = "0123456789abcdef";

/** The letter of a control character's short escape (`\n`), or 0. */
const SHORT_ESCAPES = new Uint8Array(0x20);
SHORT_ESCAPES[0x08] = 0x62; // \b
SHORT_ESCAPES[0x09] = 0x74; // \t
SHORT_ESCAPES[0x0a] = 0x6e; // \n
SHORT_ESCAPES[0x0c] = 0x66; // \f
SHORT_ESCAPES[0x0d] = 0x72; // \r

/**
 * Escapes strings into buffers it keeps between calls, up to `maxKept`
 * bytes each; a view it returns is valid until its next call.
 */
export class JsonStringBytes {
  readonly #maxKept: number;
  #encoded: Uint8Array = new Uint8Array(0);
  #escaped: Uint8Array = new Uint8Array(0);

  /** @param maxKept The largest buffer kept for the next call, in bytes. */
  constructor(maxKept: number) {
    this.#maxKept = maxKept;
  }

  /** The UTF-8 bytes of `JSON.stringify(text)` between its quotes. */
  of(text: string): Uint8Array {
    if (!text.isWellFormed()) {
      return encoder.encode(JSON.stringify(text).slice(1, -1));
    }
    // At most 3 UTF-8 bytes for each UTF-16 unit.
    const encoded = this.#encoded.length >= 3 * text.length
      ? this.#encoded
      : this.#keep("encoded", new Uint8Array(3 * text.length));
    const length = encoder.encodeInto(text, encoded).written;
    // Room for the text and an eighth more for escapes, grown if they need
    // more: each escape takes at most 6 bytes, so before one is written the
    // buffer is made to hold it and the rest of the text unescaped.
    let escaped = this.#escaped.length >= length + (length >> 3)
      ? this.#escaped
      : this.#keep("escaped", new Uint8Array(length + (length >> 3)));
    let at = 0;
    for (let i = 0; i < length; i++) {
      const byte = encoded[i]!;
      if (byte >= 0x20 && byte !== QUOTE && byte !== BACKSLASH) {
        escaped[at++] = byte;
        continue;
      }
      const needed = at + 6 + (length - i);
      if (needed > escaped.length) {
        const grown = new Uint8Array(needed + (length >> 3));
        grown.set(escaped.subarray(0, at));
        escaped = this.#keep("escaped", grown);
      }
      escaped[at++] = BACKSLASH;
      if (byte >= 0x20) {
        escaped[at++] = byte;
      } else if (SHORT_ESCAPES[byte] !== 0) {
        escaped[at++] = SHORT_ESCAPES[byte]!;
      } else {
        escaped[at++] = LOWER_U;
        escaped[at++] = ZERO;
        escaped[at++] = ZERO;
        escaped[at++] = HEX_DIGITS.charCodeAt(byte >> 4);
        escaped[at++] = HEX_DIGITS.charCodeAt(byte & 15);
      }
    }
    return escaped.subarray(0, at);
  }

  #keep(which: "encoded" | "escaped", buffer: Uint8Array): Uint8Array {
    if (buffer.length <= this.#maxKept) {
      if (which === "encoded") this.#encoded = buffer;
      else this.#escaped = buffer;
    }
    return buffer;
  }
}

// The confirm_token wire format: encoding, signing and strict reading. The
// guard in confirmation.ts decides what a token may confirm; this module
// only knows how to make one that cannot be forged and read it back.
//
// A token is `<payload>.<mac>`, both base64url. The payload (JSON) holds a
// random nonce, a MAC of that nonce, the expiry, the identity it was issued
// to, the tool, the pad id, the SHA-256 of the canonical JSON of the bound
// arguments, the SHA-256 of the pad text the write would destroy and the
// pad's revision; `mac` is HMAC-SHA-256 of the payload, checked in constant
// time (`equalInConstantTime`). The revision is what makes a used token dead on
// every replica that shares the secret: redeeming it writes, the write
// moves the revision, and the revision never comes back, even if a person
// restores the old text.

const NONCE_BYTES = 16;
const MAX_TOKEN_LENGTH = 4096;
const TOKEN_LABEL = "rustpad-mcp confirm token v3\n";
const NONCE_LABEL = "rustpad-mcp confirm nonce v3\n";
const TOKEN_PATTERN = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;
const NONCE_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const DIGEST_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What a token says it confirms. */
export interface TokenClaims {
  /** Expiry, milliseconds since the epoch. */
  e: number;
  /** The identity it was issued to (`""`: the unnamed one). */
  i: string;
  /** Tool. */
  t: string;
  /** Pad id. */
  p: string;
  /** SHA-256 of the canonical JSON of the binding, base64url. */
  a: string;
  /** SHA-256 of the content, base64url. */
  c: string;
  /** The pad's revision when the token was issued. */
  r: number;
}

interface Payload extends TokenClaims {
  /** Format version. */
  v: 3;
  /** Nonce, base64url. */
  n: string;
  /** HMAC of the nonce, base64url: tells an altered token from a forged one. */
  k: string;
}

/** A token read back: its claims, or why it cannot be trusted. */
export type OpenedToken =
  | { status: "valid"; nonce: string; claims: TokenClaims }
  | { status: "malformed" | "unreadable" | "forged" | "altered" };

import { equalInConstantTime, HmacSha256 } from "../digest/mod.ts";

const encoder = new TextEncoder();

/** Unpadded base64url. */
export function toBase64Url(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

/**
 * Decode unpadded base64url, or `undefined` if it is not in the one
 * canonical spelling (so no two token strings decode alike).
 */
export function fromBase64Url(
  text: string,
): Uint8Array<ArrayBuffer> | undefined {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
  return toBase64Url(bytes) === text ? bytes : undefined;
}

/**
 * The JSON object a base64url payload segment holds, or `undefined` if it
 * is not canonical base64url, UTF-8 or a JSON object.
 */
export function decodeJsonSegment(
  segment: string,
): Record<string, unknown> | undefined {
  const bytes = fromBase64Url(segment);
  if (bytes === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/** SHA-256 of a string's UTF-16 code units (exact, even for lone surrogates). */
export async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes[2 * i] = unit & 0xff;
    bytes[2 * i + 1] = unit >> 8;
  }
  return toBase64Url(
    new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
  );
}

/** JSON with object keys sorted, so equal arguments give equal text. */
export function canonicalJson(
  value: unknown,
  path: string,
  ancestors: Set<object> = new Set(),
): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (Number.isFinite(value)) return JSON.stringify(value);
      break;
    case "object": {
      const prototype = Object.getPrototypeOf(value);
      const isArray = Array.isArray(value);
      if (
        ancestors.has(value) ||
        (!isArray && prototype !== Object.prototype && prototype !== null)
      ) break;
      ancestors.add(value);
      let text: string;
      if (isArray) {
        text = `[${
          value.map((item, index) =>
            canonicalJson(item, `${path}[${index}]`, ancestors)
          ).join(",")
        }]`;
      } else {
        const record = value as Record<string, unknown>;
        const members = Object.keys(record).sort()
          .filter((key) => record[key] !== undefined)
          .map((key) =>
            `${JSON.stringify(key)}:${
              canonicalJson(
                record[key],
                `${path}[${JSON.stringify(key)}]`,
                ancestors,
              )
            }`
          );
        text = `{${members.join(",")}}`;
      }
      ancestors.delete(value);
      return text;
    }
  }
  throw new TypeError(
    `Cannot bind a confirmation to the arguments as they are not plain JSON: ${path} is ${
      typeof value === "object" ? "a cycle or a non-plain object" : typeof value
    }`,
  );
}

/** Read a payload's fields strictly, or `undefined` if they are not ours. */
function parsePayload(segment: string): Payload | undefined {
  const value = decodeJsonSegment(segment);
  if (value === undefined) return undefined;
  const fields = value;
  const { v, n, k, e, i, t, p, a, c, r } = fields;
  if (
    Object.keys(fields).length !== 10 || v !== 3 ||
    typeof n !== "string" || !NONCE_PATTERN.test(n) ||
    typeof k !== "string" || !DIGEST_PATTERN.test(k) ||
    typeof e !== "number" || !Number.isSafeInteger(e) ||
    typeof i !== "string" || typeof t !== "string" || typeof p !== "string" ||
    typeof a !== "string" || !DIGEST_PATTERN.test(a) ||
    typeof c !== "string" || !DIGEST_PATTERN.test(c) ||
    typeof r !== "number" || !Number.isSafeInteger(r)
  ) {
    return undefined;
  }
  return { v, n, k, e, i, t, p, a, c, r };
}

/**
 * HMAC-SHA-256 with one secret, each use under its own label so that a MAC
 * made for one kind of value never verifies as another.
 */
export class HmacSigner {
  readonly #hmac: HmacSha256;

  constructor(secret: Uint8Array) {
    this.#hmac = new HmacSha256(secret);
  }

  /** The MAC of `label` and `text`, base64url. */
  sign(label: string, text: string): Promise<string> {
    return Promise.resolve(toBase64Url(this.#mac(label, text)));
  }

  /** Whether `mac` is the MAC of `label` and `text`, in constant time. */
  verify(label: string, text: string, mac: string): Promise<boolean> {
    const bytes = fromBase64Url(mac);
    const expected = this.#mac(label, text);
    return Promise.resolve(
      bytes !== undefined && equalInConstantTime(bytes, expected),
    );
  }

  #mac(label: string, text: string): Uint8Array {
    return this.#hmac.mac(label + text);
  }
}

/** Signs tokens with one secret and reads them back. */
export class TokenCodec {
  readonly #signer: HmacSigner;

  constructor(signer: HmacSigner) {
    this.#signer = signer;
  }

  /** A fresh token with a new nonce for `claims`. */
  async issue(claims: TokenClaims): Promise<string> {
    const nonce = toBase64Url(
      crypto.getRandomValues(new Uint8Array(NONCE_BYTES)),
    );
    const payload: Payload = {
      v: 3,
      n: nonce,
      k: await this.#signer.sign(NONCE_LABEL, nonce),
      ...claims,
    };
    const segment = toBase64Url(encoder.encode(JSON.stringify(payload)));
    return `${segment}.${await this.#signer.sign(TOKEN_LABEL, segment)}`;
  }

  /**
   * Read a token back. Not well formed: `malformed`. A bad MAC: `altered`
   * if the payload still carries a nonce this secret signed, else `forged`.
   * A good MAC on contents we cannot read: `unreadable`.
   */
  async open(token: string): Promise<OpenedToken> {
    const match = token.length <= MAX_TOKEN_LENGTH
      ? TOKEN_PATTERN.exec(token)
      : null;
    if (match === null) return { status: "malformed" };
    const [, segment = "", mac = ""] = match;
    const payload = parsePayload(segment);
    if (!await this.#signer.verify(TOKEN_LABEL, segment, mac)) {
      const altered = payload !== undefined &&
        await this.#signer.verify(NONCE_LABEL, payload.n, payload.k);
      return { status: altered ? "altered" : "forged" };
    }
    if (payload === undefined) return { status: "unreadable" };
    const { n, e, i, t, p, a, c, r } = payload;
    return { status: "valid", nonce: n, claims: { e, i, t, p, a, c, r } };
  }
}

// Writing HTTP/1.1 responses: the head (status line, the handler's fields,
// framing and connection fields set here, never by the handler), chunks of
// a streamed body, and whole small responses as one buffer.

import { REASON_PHRASES } from "./_reason.ts";

export const CONTINUE = new TextEncoder().encode(
  "HTTP/1.1 100 Continue\r\n\r\n",
);
export const LAST_CHUNK = new TextEncoder().encode("0\r\n\r\n");
/** Response fields the connection sets itself. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "upgrade",
]);

/** How the request shapes the response, and whether to keep the connection. */
export interface ResponseFraming {
  /** The request's method; undefined for a refused head. */
  readonly method: string | undefined;
  readonly minor: 0 | 1 | undefined;
  /** The keep-alive timeout to announce, in seconds; undefined to close. */
  readonly keepAliveS: number | undefined;
}

/** The head's bytes, and how the body goes: chunked, raw, or not at all. */
export function responseHead(
  response: Response,
  framing: ResponseFraming,
): { bytes: Uint8Array; chunked: boolean; noBody: boolean } {
  const status = response.status;
  const noBody = framing.method === "HEAD" || status === 204 || status === 304;
  // A length the handler states is trusted: its body is sent as is.
  const declared = response.headers.get("content-length");
  const length = declared !== null && /^\d+$/.test(declared)
    ? declared
    : undefined;
  // HTTP/1.0 has no chunks: its body ends when the connection closes.
  const chunked = !noBody && response.body !== null && framing.minor !== 0 &&
    length === undefined;
  const own = chunked
    ? ["transfer-encoding: chunked"]
    : status === 204 || status === 304
    ? []
    : length !== undefined
    ? [`content-length: ${length}`]
    : !noBody && response.body === null
    ? ["content-length: 0"]
    : [];
  own.push(
    framing.keepAliveS === undefined
      ? "connection: close"
      : `connection: keep-alive\r\nkeep-alive: timeout=${framing.keepAliveS}`,
  );
  const text = `${headLines(response, own).join("\r\n")}\r\n\r\n`;
  return { bytes: new TextEncoder().encode(text), chunked, noBody };
}

/** A small response, body included, as one buffer that closes the connection. */
export async function wholeResponse(response: Response): Promise<Uint8Array> {
  const body = new Uint8Array(await response.arrayBuffer());
  const head = new TextEncoder().encode(
    `${
      headLines(response, [
        `content-length: ${body.length}`,
        "connection: close",
      ]).join("\r\n")
    }\r\n\r\n`,
  );
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head);
  bytes.set(body, head.length);
  return bytes;
}

/** The status line and fields of `response`, then `own` fields. */
function headLines(response: Response, own: string[]): string[] {
  const status = response.status;
  const lines = [
    `HTTP/1.1 ${status} ${
      response.statusText || REASON_PHRASES[status] || "Unknown"
    }`,
  ];
  for (const [name, value] of response.headers) {
    if (!HOP_BY_HOP.has(name)) lines.push(`${name}: ${value}`);
  }
  return [...lines, ...own];
}

/** One chunk of a chunked body. */
export function frame(bytes: Uint8Array): Uint8Array {
  const size = new TextEncoder().encode(`${bytes.length.toString(16)}\r\n`);
  const framed = new Uint8Array(size.length + bytes.length + 2);
  framed.set(size);
  framed.set(bytes, size.length);
  framed.set([13, 10], size.length + bytes.length);
  return framed;
}

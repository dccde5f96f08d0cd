// The head of an HTTP/1.1 request (request line and header fields), parsed
// strictly: anything ambiguous (a body framed two ways, folded or padded
// field names, two Host fields, a malformed Host) is refused with a status,
// never guessed at, so no request can mean one thing here and another to a
// proxy in front.

/** A parsed request head. */
export interface RequestHead {
  readonly method: string;
  /** The origin-form target: the path and query, such as `/mcp?x=1`. */
  readonly target: string;
  /** The minor version: HTTP/1.0 or HTTP/1.1. */
  readonly minor: 0 | 1;
  /** Field names in lower case, values as sent (Latin-1, trimmed). */
  readonly fields: readonly (readonly [string, string])[];
  /** The Host field, checked; the listener's address for HTTP/1.0 without one. */
  readonly host: string;
  readonly body: BodyFraming;
  /** Whether the client allows another request on this connection. */
  readonly keepAlive: boolean;
  /** Whether the client waits for `100 Continue` before sending the body. */
  readonly expectContinue: boolean;
}

/** How the request body is delimited. */
export type BodyFraming =
  | { readonly kind: "none" }
  | { readonly kind: "length"; readonly length: number }
  | { readonly kind: "chunked" };

/** Why a head cannot be served: the status and the message to send. */
export interface HeadRefusal {
  readonly status: number;
  readonly message: string;
}

/** The most header fields one request may have. */
export const MAX_FIELDS = 100;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const REQUEST_LINE = /^([^ ]+) ([^ ]+) HTTP\/1\.([01])$/;
/** Field values: visible Latin-1 characters, spaces and tabs. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Path and query: visible ASCII, no fragment. */
const ORIGIN_FORM = /^\/[\x21-\x22\x24-\x7e]*$/;
/**
 * A `.` or `..` path segment, percent-encoded or not, between slashes or
 * backslashes: URLs resolve it away (`/healthz/%2e%2e/mcp` is `/mcp`), so
 * a proxy routing by prefix would pass on a path that means another here.
 */
const DOT_SEGMENT = /(?:^|[/\\])(?:\.|%2e){1,2}(?=[/\\]|$)/i;
/** A Host value: a bracketed IPv6 address or a reg-name, then a port. */
const HOST =
  /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]{0,5})?$/;

/**
 * Whether a Host field value is a well-formed `host[:port]` that a URL can
 * be built from.
 */
export function isValidHost(host: string): boolean {
  if (host === lastValidHost) return true;
  if (!HOST.test(host)) return false;
  try {
    if (new URL(`http://${host}/`).host === "") return false;
  } catch {
    return false;
  }
  lastValidHost = host;
  return true;
}

/** The last Host found valid: nearly every request repeats it. */
let lastValidHost: string | undefined;

/** The fields of a head that decide how it is served, each value as sent. */
interface FramingFields {
  host: string[];
  "transfer-encoding": string[];
  "content-length": string[];
  connection: string[];
  expect: string[];
}

/** Whether `code` is a space or a tab. */
function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

function refuse(status: number, message: string): HeadRefusal {
  return { status, message };
}

/**
 * Parse the head: `text` is its bytes decoded as Latin-1, without the blank
 * line that ends it.
 */
export function parseHead(
  text: string,
  fallbackHost: string,
): RequestHead | HeadRefusal {
  const lines = text.split("\r\n");
  const requestLine = REQUEST_LINE.exec(lines[0] ?? "");
  if (requestLine === null) {
    return /^[^ ]+ [^ ]+ HTTP\/\d/.test(lines[0] ?? "")
      ? refuse(
        505,
        "Cannot serve the request as its HTTP version is not 1.0 or 1.1: use HTTP/1.1",
      )
      : refuse(
        400,
        "Cannot serve the request as its request line is malformed: expected METHOD /path HTTP/1.1",
      );
  }
  const [, method = "", target = "", minorText] = requestLine;
  if (!TOKEN.test(method)) {
    return refuse(400, "Cannot serve the request as its method is malformed");
  }
  if (!ORIGIN_FORM.test(target)) {
    return refuse(
      400,
      "Cannot serve the request as its target is not a path such as /mcp",
    );
  }
  const path = target.split("?", 1)[0]!;
  if (DOT_SEGMENT.test(path)) {
    return refuse(
      400,
      `Cannot serve the request as its path has a . or .. segment, which URLs resolve away: current value is ${path}; send the path it stands for`,
    );
  }
  if (lines.length - 1 > MAX_FIELDS) {
    return refuse(
      431,
      `Cannot serve the request as it has over ${MAX_FIELDS} header fields: send fewer`,
    );
  }
  const fields: [string, string][] = [];
  // Gathered in the same pass: what the rest of the parse looks at.
  const decisive: FramingFields = {
    host: [],
    "transfer-encoding": [],
    "content-length": [],
    connection: [],
    expect: [],
  };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    let value = line.slice(colon + 1);
    // Most values have no blank to trim: the regular expression only for those that do.
    if (
      value !== "" &&
      (isBlank(value.charCodeAt(0)) ||
        isBlank(value.charCodeAt(value.length - 1)))
    ) {
      value = value.replace(/^[ \t]+|[ \t]+$/g, "");
    }
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) {
      return refuse(
        400,
        "Cannot serve the request as a header field is malformed (folded, padded before the colon, or with control characters)",
      );
    }
    const lower = name.toLowerCase();
    fields.push([lower, value]);
    if (Object.hasOwn(decisive, lower)) {
      decisive[lower as keyof FramingFields].push(value);
    }
  }
  const minor = minorText === "0" ? 0 : 1;
  const all = (name: keyof FramingFields) => decisive[name];

  const hosts = all("host");
  if (hosts.length > 1 || (hosts.length === 0 && minor === 1)) {
    return refuse(
      400,
      "Cannot serve the request as it must have exactly one Host header",
    );
  }
  const host = hosts[0] ?? fallbackHost;
  if (!isValidHost(host)) {
    return refuse(
      400,
      `Cannot serve the request as its Host header is malformed: expected host or host:port, current value is ${
        JSON.stringify(host.slice(0, 100))
      }`,
    );
  }

  const body = framing(all("transfer-encoding"), all("content-length"), minor);
  if ("status" in body) return body;
  const connection = all("connection").join(",").toLowerCase().split(",")
    .map((token) => token.trim());
  const keepAlive = minor === 1
    ? !connection.includes("close")
    : connection.includes("keep-alive");
  const expect = all("expect").map((value) => value.toLowerCase());
  if (expect.some((value) => value !== "100-continue")) {
    return refuse(
      417,
      "Cannot serve the request as its Expect header is not 100-continue",
    );
  }
  return {
    method,
    target,
    minor,
    fields,
    host,
    body,
    keepAlive,
    expectContinue: expect.length > 0 && minor === 1,
  };
}

function framing(
  encodings: string[],
  lengths: string[],
  minor: 0 | 1,
): BodyFraming | HeadRefusal {
  if (encodings.length > 0) {
    // Both framings at once is how requests are smuggled past proxies.
    if (lengths.length > 0) {
      return refuse(
        400,
        "Cannot serve the request as it has both Transfer-Encoding and Content-Length",
      );
    }
    if (
      minor === 0 || encodings.length !== 1 ||
      encodings[0]!.toLowerCase() !== "chunked"
    ) {
      return refuse(
        501,
        "Cannot serve the request as its Transfer-Encoding is not chunked: send Content-Length or chunked",
      );
    }
    return { kind: "chunked" };
  }
  if (lengths.length === 0) return { kind: "none" };
  const values = new Set(
    lengths.join(",").split(",").map((value) => value.trim()),
  );
  const [value] = values;
  if (values.size !== 1 || value === undefined || !/^\d{1,15}$/.test(value)) {
    return refuse(
      400,
      "Cannot serve the request as its Content-Length is not one decimal number",
    );
  }
  const length = Number(value);
  return length === 0 ? { kind: "none" } : { kind: "length", length };
}

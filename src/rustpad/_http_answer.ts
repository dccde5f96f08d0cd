// Reading a Rustpad HTTP answer without trusting it: the body is read
// chunk by chunk and cut at a cap (an endless body must not fill memory
// while the timeout runs), a redirect is described rather than followed,
// and error messages name what went wrong without repeating upstream text.

/** The most bytes of a pad's text: 262,144 code points are at most 1 MiB. */
export const MAX_TEXT_ANSWER_BYTES = 2 * 1024 * 1024;
/** The most bytes of a stats answer: three numbers. */
export const MAX_STATS_ANSWER_BYTES = 65_536;
/** The longest redirect target quoted in an error. */
const MAX_LOCATION_LENGTH = 200;

/** Raised by {@linkcode readCapped} when the body passes its cap. */
export class AnswerTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`The answer is over ${maxBytes} bytes`);
    this.name = "AnswerTooLarge";
  }
}

/**
 * The body of `response` as UTF-8 text, read incrementally; rejects with
 * {@linkcode AnswerTooLarge} (and cancels the rest) once it passes
 * `maxBytes`, or if Content-Length already says it will.
 */
export async function readCapped(
  response: Response,
  maxBytes: number,
): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  const body = response.body;
  if (declared > maxBytes) {
    await body?.cancel().catch(() => {});
    throw new AnswerTooLarge(maxBytes);
  }
  if (body === null) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new AnswerTooLarge(maxBytes);
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return text + decoder.decode();
}

/**
 * Where a redirect pointed, for an error message: the absolute URL (so
 * only URL characters), cut to 200 characters; or how it was malformed.
 */
export function redirectTarget(response: Response, from: URL): string {
  const location = response.headers.get("location");
  if (location === null) return "nowhere (no Location header)";
  let target: string;
  try {
    target = new URL(location, from).href;
  } catch {
    return "an unreadable Location";
  }
  return target.length > MAX_LOCATION_LENGTH
    ? `${target.slice(0, MAX_LOCATION_LENGTH)}…`
    : target;
}

/** A short reason for a network failure, from the innermost error message. */
export function networkReason(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (
    let cause = error instanceof Error ? error.cause : undefined;
    cause instanceof Error;
    cause = cause.cause
  ) {
    message = cause.message;
  }
  if (/connection refused/i.test(message)) return "connection refused";
  if (/connection reset/i.test(message)) return "connection reset";
  if (/dns error|failed to lookup|name or service not known/i.test(message)) {
    return "host not found";
  }
  // Drop Deno's "error sending request for url (...): " prefix, which
  // repeats the URL.
  return message.replace(/^error sending request for url \([^)]*\): /, "");
}

/**
 * A value for an error message: numbers, booleans and null as they are,
 * anything else by its type only, so no text from the answer is repeated.
 */
export function describe(value: unknown): string {
  if (
    value === null || typeof value === "number" || typeof value === "boolean"
  ) {
    return String(value);
  }
  if (value === undefined) return "missing";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

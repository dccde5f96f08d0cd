// Where a literal search pattern is in a text: every occurrence, left to
// right, not overlapping; a pattern with LF line breaks also finds them
// written as CRLF, as the editing tools match them.

import { asCrlf } from "./lines.ts";

/**
 * `pattern`, or its CRLF form when `pattern` has LF line breaks that
 * `text` writes as CRLF: lines copied from `read_lines` (LF) find a CRLF
 * pad's text, as the editing tools match them.
 */
export function literalIn(
  text: string,
  pattern: string,
  caseInsensitive: boolean,
): string {
  const crlf = asCrlf(pattern);
  if (crlf === undefined) return pattern;
  // Ignoring case, `includes` cannot tell: go by the text's line endings.
  const found = caseInsensitive
    ? !text.includes("\r\n") || /(^|[^\r])\n/.test(text)
    : text.includes(pattern);
  return found ? pattern : crlf;
}

/** The spans of `pattern` in `text`, in UTF-16 units. */
export function* literalSpans(
  text: string,
  pattern: string,
): Generator<[number, number]> {
  for (
    let at = text.indexOf(pattern);
    at !== -1;
    at = text.indexOf(pattern, at + pattern.length)
  ) {
    yield [at, at + pattern.length];
  }
}

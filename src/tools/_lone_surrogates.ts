// Rustpad hangs up on a frame holding half of a UTF-16 surrogate pair
// (docs/protocol.md): its JSON reader takes only whole characters. An edit
// that would insert one is refused here, before anything is sent; the
// write gate calls this for every write tool, so the rule lives in one place.

import {
  advanceCodePoints,
  isHighSurrogate,
  isLowSurrogate,
} from "../ot/code_points.ts";
import type { TextOperation } from "../ot/operation.ts";

/** UTF-16 units of context quoted on each side of the lone half. */
const CONTEXT = 10;

/**
 * Throw, naming where, if `operation` (on the text `textOf` gives, read
 * only then) inserts a lone surrogate.
 *
 * @throws {RangeError} Saying nothing was changed.
 */
export function refuseLoneSurrogates(
  padId: string,
  textOf: () => string,
  operation: TextOperation,
): void {
  // Only an insert can bring a lone half (the pad never holds one), and
  // finding where it lands costs a walk of the text: only for the refusal.
  if (
    operation.components.every((component) =>
      typeof component === "number" || component.isWellFormed()
    )
  ) return;
  const text = textOf();
  let read = 0; // UTF-16 offset in `text`
  let written = 0; // UTF-16 offset in the text after the edit
  for (const component of operation.components) {
    if (typeof component === "number") {
      const next = advanceCodePoints(text, read, Math.abs(component));
      if (component > 0) written += next - read;
      read = next;
      continue;
    }
    const at = loneSurrogateAt(component);
    if (at === -1) {
      written += component.length;
      continue;
    }
    const unit = component.charCodeAt(at).toString(16);
    const quoted = JSON.stringify(
      component.slice(Math.max(0, at - CONTEXT), at + CONTEXT + 1),
    );
    throw new RangeError(
      `Cannot write to pad "${padId}" as the text to insert holds half of a UTF-16 surrogate pair (\\u${unit} alone), which Rustpad refuses by dropping the connection: it is at UTF-16 offset ${
        written + at
      } of the pad after the edit, in the inserted text around ${quoted}. Nothing was changed; send whole characters (an emoji is both halves of its pair) or leave it out`,
    );
  }
}

/** The UTF-16 index of the first unpaired surrogate in `text`, or -1. */
function loneSurrogateAt(text: string): number {
  if (text.isWellFormed()) return -1;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(at + 1))) {
      at++;
    } else if (isHighSurrogate(unit) || isLowSurrogate(unit)) return at;
  }
  return -1;
}

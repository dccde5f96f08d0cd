// Rustpad counts Unicode code points; JavaScript strings count UTF-16 units.
// These helpers convert between the two without allocating arrays of
// characters, so long texts stay cheap.

/** Whether the UTF-16 unit is the first half of a surrogate pair. */
export function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** Whether the UTF-16 unit is the second half of a surrogate pair. */
export function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Number of code points in `text` (a lone surrogate counts as one). */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if (
      isHighSurrogate(text.charCodeAt(i)) &&
      isLowSurrogate(text.charCodeAt(i + 1))
    ) {
      length--;
      i++;
    }
  }
  return length;
}

/**
 * UTF-16 offset reached by advancing `count` code points from the UTF-16
 * offset `from`. Stops at the end of `text` if it is shorter.
 */
export function advanceCodePoints(
  text: string,
  from: number,
  count: number,
): number {
  let index = from;
  for (let n = 0; n < count && index < text.length; n++) {
    if (
      isHighSurrogate(text.charCodeAt(index)) &&
      index + 1 < text.length &&
      isLowSurrogate(text.charCodeAt(index + 1))
    ) {
      index += 2;
    } else {
      index += 1;
    }
  }
  return index;
}

/** The code points of `text` from `start` up to (not including) `end`. */
export function sliceCodePoints(
  text: string,
  start: number,
  end?: number,
): string {
  const from = advanceCodePoints(text, 0, start);
  if (end === undefined) return text.slice(from);
  return text.slice(from, advanceCodePoints(text, from, end - start));
}

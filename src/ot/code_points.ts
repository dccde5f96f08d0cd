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

/**
 * A surrogate pair: one code point in two units. Searched for with a
 * regex, which scans natively, so a walk over a long text with a few pairs
 * in it costs a search per pair rather than a step per unit (a pad's
 * history is replayed before the engine has compiled any loop).
 */
const PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Texts this long or longer have their pairs counted by {@linkcode PAIR}. */
const SEARCHED_LENGTH = 64;

/** Number of code points in `text` (a lone surrogate counts as one). */
export function codePointLength(text: string): number {
  if (text.length >= SEARCHED_LENGTH) {
    let pairs = 0;
    PAIR.lastIndex = 0;
    while (PAIR.test(text)) pairs++;
    return text.length - pairs;
  }
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
  let remaining = count;
  // `count` code points span at most 2 * count units: the search must not
  // go past them, or a walk in steps over a text without pairs (most pads)
  // would scan to its end at every step. A slice shares the text's units.
  const window = text.length - from > 2 * count
    ? text.slice(0, from + 2 * count)
    : text;
  PAIR.lastIndex = from;
  while (remaining > 0) {
    // test() moves lastIndex past the pair and allocates nothing.
    if (!PAIR.test(window)) return Math.min(index + remaining, text.length);
    const pair = PAIR.lastIndex - 2;
    // Units before the pair are a code point each (a lone surrogate too).
    if (pair - index >= remaining) return index + remaining;
    remaining -= pair - index + 1;
    index = pair + 2;
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

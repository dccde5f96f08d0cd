// Replaying a busy pad's history on connect: 10,000 single-code-point edits
// onto a 200,000-code-point document. The operations are built once, outside
// the timed part. Both cases share one group so `deno bench` prints the
// naive string path as a multiple of the TextBuffer baseline.

import {
  replayFixture,
  replayString,
  replayTextBuffer,
  TARGET_MS,
} from "./replay.ts";
import { TextBuffer } from "../src/ot/text_buffer.ts";
import { advanceCodePoints } from "../src/ot/code_points.ts";

const fixture = replayFixture();
const expected = replayTextBuffer(fixture);

Deno.bench({
  name: "TextBuffer replay",
  group: "replay 10k edits onto 200k code points",
  baseline: true,
  n: 20,
  warmup: 3,
  fn(): void {
    if (replayTextBuffer(fixture) !== expected) {
      throw new Error(
        `Cannot trust the replay as its result changed: target is under ${TARGET_MS} ms`,
      );
    }
  },
});

Deno.bench({
  name: "string apply replay",
  group: "replay 10k edits onto 200k code points",
  // About 11 s an iteration: one timed run (deno adds one warmup).
  n: 1,
  warmup: 0,
  fn(): void {
    if (replayString(fixture) !== expected) {
      throw new Error(
        "Cannot trust the replay as the string path and TextBuffer disagree",
      );
    }
  },
});

// A pad with no emoji but a dash or a curly quote is a two-byte string
// without surrogate pairs: every step of a walk by code points must search
// only the span it crosses, not the rest of the text (a search to the end at
// each step made loading such a pad 60 times slower: 47 ms against 0.8).
const TWO_BYTE = "Lorem ipsum dolor sit amet \u2014 \u201cquoted\u201d.\n"
  .repeat(5_000);

Deno.bench({
  name: "TextBuffer of a 200 KB two-byte text without pairs",
  group: "load a pad without surrogate pairs",
  baseline: true,
  fn(): void {
    new TextBuffer(TWO_BYTE);
  },
});

Deno.bench({
  name: "walk it by code points, 100 at a step",
  group: "load a pad without surrogate pairs",
  fn(): void {
    for (let i = 0; i < TWO_BYTE.length;) {
      i = advanceCodePoints(TWO_BYTE, i, 100);
    }
  },
});

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

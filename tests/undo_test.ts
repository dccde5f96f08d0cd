import assert from "node:assert/strict";
import { UndoHistory } from "../src/undo.ts";
import { TextOperation } from "../src/operation.ts";

function entry(revision: number) {
  return {
    revision,
    author: 1,
    operation: TextOperation.fromJSON([revision, "x"]),
    inverse: TextOperation.fromJSON([revision, -1]),
  };
}

Deno.test("UndoHistory keeps the newest 100 own edits per pad, newest first", () => {
  const history = new UndoHistory();
  for (let revision = 0; revision < 120; revision++) {
    history.record("a", entry(revision));
  }
  assert.equal(history.count("a"), 100);
  assert.equal(history.latest("a")?.revision, 119);
  history.pop("a", 119);
  assert.equal(history.latest("a")?.revision, 118);
  assert.equal(history.count("b"), 0);
});

Deno.test("UndoHistory never keeps a skipped revision, whether skipped before or after it arrives", () => {
  const history = new UndoHistory();
  history.skip("a", 1);
  history.record("a", entry(0));
  history.record("a", entry(1));
  assert.equal(history.latest("a")?.revision, 0);
  history.record("a", entry(2));
  history.skip("a", 2);
  assert.equal(history.latest("a")?.revision, 0);
});

Deno.test("UndoHistory ignores no-op edits", () => {
  const history = new UndoHistory();
  history.record("a", {
    revision: 0,
    author: 1,
    operation: TextOperation.fromJSON([3]),
    inverse: TextOperation.fromJSON([3]),
  });
  assert.equal(history.count("a"), 0);
});

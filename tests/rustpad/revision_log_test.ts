import assert from "node:assert/strict";
import { RevisionLog, TextBuffer, TextOperation } from "../../src/mod.ts";
import { property } from "../_random.ts";

function logOf(
  texts: readonly string[],
  capacity?: number,
): { log: RevisionLog; buffer: TextBuffer } {
  const log = new RevisionLog(capacity);
  const buffer = new TextBuffer();
  for (const text of texts) {
    const operation = new TextOperation().retain(buffer.length).insert(text);
    log.append({
      author: 7,
      operation,
      inverse: buffer.applyAndInvert(operation),
    });
  }
  return { log, buffer };
}

Deno.test("`RevisionLog.textAt()` rebuilds the text at every revision of a random history", () => {
  property(11, (random, where) => {
    const log = new RevisionLog();
    const buffer = new TextBuffer(random.text(random.int(20)));
    const texts = [buffer.toString()];
    // The log starts at revision 0 with an empty text: seed it with an insert.
    const first = new TextOperation().insert(texts[0]!);
    const start = new TextBuffer();
    log.append({
      author: 1,
      operation: first,
      inverse: start.applyAndInvert(first),
    });
    const steps = random.int(8);
    for (let i = 0; i < steps; i++) {
      const operation = random.operation(start.toString());
      log.append({
        author: 2,
        operation,
        inverse: start.applyAndInvert(operation),
      });
      texts.push(start.toString());
    }
    assert.equal(log.textAt(0, start), "", where);
    for (const [index, text] of texts.entries()) {
      assert.equal(log.textAt(index + 1, start), text, where);
    }
  }, 200);
});

Deno.test("`RevisionLog.since()` returns the entries from a revision, with their revisions", () => {
  const { log } = logOf(["a", "b", "c"]);
  assert.deepEqual(log.since(1).map((entry) => entry.revision), [1, 2]);
  assert.deepEqual(log.since(3), []);
});

Deno.test("`RevisionLog` keeps only its capacity and refuses older revisions with a read-again hint", () => {
  const { log, buffer } = logOf(["a", "b", "c", "d", "e"], 2);
  assert.equal(log.oldestRevision, 3);
  assert.equal(log.textAt(3, buffer), "abc");
  assert.throws(
    () => log.since(2),
    /only the last 2 operations are kept: oldest revision is 3, current revision is 5; read the pad again/,
  );
  assert.throws(
    () => log.textAt(6, buffer),
    /not there yet: current revision is 5/,
  );
});

Deno.test("`RevisionLog` stays correct across compaction of dropped entries", () => {
  const texts = Array.from(
    { length: 50 },
    (_, i) => String.fromCharCode(97 + (i % 26)),
  );
  const { log, buffer } = logOf(texts, 4);
  assert.equal(log.oldestRevision, 46);
  assert.equal(log.textAt(46, buffer), texts.slice(0, 46).join(""));
  assert.deepEqual(log.since(48).map((entry) => entry.revision), [48, 49]);
});

Deno.test("`RevisionLog` keeps at most maxText UTF-16 units of inserted text, dropping the oldest, and always the newest", () => {
  // Each rewrite inserts 100 units and its inverse puts back the 100 before.
  const log = new RevisionLog(10_000, 450);
  const buffer = new TextBuffer();
  for (let n = 0; n < 10; n++) {
    const operation = new TextOperation().delete(buffer.length).insert(
      String(n).repeat(100),
    );
    log.append({
      author: n,
      operation,
      inverse: buffer.applyAndInvert(operation),
    });
  }
  // 200 units per rewrite: two fit in 450.
  assert.equal(log.oldestRevision, 8);
  assert.equal(log.textAt(8, buffer), "7".repeat(100));
  assert.equal(log.authorOf(9), 9);
  assert.equal(log.authorOf(7), undefined);
  assert.throws(() => log.since(7), /only the last 2 operations are kept/);
  const tiny = new RevisionLog(10, 1);
  const huge = new TextOperation().insert("x".repeat(1000));
  tiny.append({ author: 1, operation: huge, inverse: huge.invert("") });
  assert.equal(tiny.since(0).length, 1);
});

Deno.test("`RevisionLog` bounds entries whose inverses are deferred by the units they will insert, without making them; reading an older text makes them", () => {
  // 300 edits, each rewriting the first two code points: astral, then not,
  // then astral... A fold of that many defers the inverses.
  const buffer = new TextBuffer("😀😀" + "a".repeat(98));
  const operations = Array.from(
    { length: 300 },
    (_, n) =>
      new TextOperation().delete(2).insert(n % 2 ? "😀😀" : "bb").retain(98),
  );
  const inverses = buffer.applyAllDeferringInverses(operations);
  assert.equal(inverses.resolved, false);
  // Each edit inserts 2 or 4 units and its inverse the other: 6 an entry,
  // so three fit in 20.
  const log = new RevisionLog(10_000, 20);
  operations.forEach((operation, index) =>
    log.append({ author: 1, operation, inverse: { inverses, index } })
  );
  assert.equal(log.oldestRevision, 297);
  assert.equal(log.authorOf(299), 1);
  assert.equal(inverses.resolved, false);
  assert.equal(log.textAt(297, buffer), "bb" + "a".repeat(98));
  assert.equal(inverses.resolved, true);
  assert.equal(
    log.since(299)[0]!.inverse.apply(buffer.toString()),
    log.textAt(299, buffer),
  );
});

Deno.test("`RevisionLog.append()` refuses a deferred inverse whose index is not among its inverses, naming it, and logs nothing", () => {
  const buffer = new TextBuffer("");
  const operation = TextOperation.fromJSON(["hi"]);
  const inverses = buffer.applyAllDeferringInverses([operation]);
  const log = new RevisionLog();
  assert.throws(
    () => log.append({ author: 1, operation, inverse: { inverses, index: 1 } }),
    /^RangeError: Cannot log the operation as its deferred inverse 1 is not among them: current count is 1$/,
  );
  assert.equal(log.revision, 0);
  log.append({ author: 1, operation, inverse: { inverses, index: 0 } });
  assert.equal(log.revision, 1);
  assert.equal(log.textAt(0, buffer), "");
});

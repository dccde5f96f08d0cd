// The lineage of a history names its first operations: digested on the
// first read, it must name them exactly as digesting each on arrival did.

import assert from "node:assert/strict";
import {
  chainDigest,
  Lineage,
  LINEAGE_DEPTH,
} from "../../src/rustpad/_history_digest.ts";
import { TextOperation } from "../../src/ot/mod.ts";

/** Digest `history`'s first operations one by one, as each arrives. */
function chained(history: [number, TextOperation][]): string[] {
  const digests: string[] = [];
  for (const [author, operation] of history.slice(0, LINEAGE_DEPTH)) {
    digests.push(chainDigest(digests.at(-1) ?? "", author, operation));
  }
  return digests;
}

/** A history of inserts, each by its own author. */
function history(count: number): [number, TextOperation][] {
  let length = 0;
  return Array.from({ length: count }, (_, revision) => {
    const text = revision === 0
      ? "é😀 a restored pad's text\r\n"
      : `${revision}`;
    const operation = new TextOperation().retain(length).insert(text);
    length = operation.targetLength;
    return [revision % 3, operation];
  });
}

Deno.test("a lineage read after its history arrived names the same first operations as digests made on arrival", () => {
  const all = history(LINEAGE_DEPTH + 4);
  const lineage = new Lineage();
  all.forEach(([author, operation], revision) =>
    lineage.note(revision, author, operation)
  );
  const expected = chained(all);
  assert.equal(lineage.at(0), "");
  assert.equal(lineage.at(1), expected[0]);
  assert.equal(lineage.at(7), expected[6]);
  assert.equal(lineage.at(LINEAGE_DEPTH + 3), expected[LINEAGE_DEPTH - 1]);
  assert.notEqual(expected[0], expected[1]);
});

Deno.test("a lineage read between arrivals goes on from where it was read", () => {
  const all = history(LINEAGE_DEPTH);
  const lineage = new Lineage();
  const expected = chained(all);
  all.forEach(([author, operation], revision) => {
    lineage.note(revision, author, operation);
    assert.equal(lineage.at(revision + 1), expected[revision]);
    assert.equal(lineage.at(1), expected[0]);
  });
});

Deno.test("two histories that differ only in an author have different lineages", () => {
  const all = history(3);
  const other = all.map(([author, operation], i): [number, TextOperation] =>
    i === 2 ? [author + 1, operation] : [author, operation]
  );
  const [a, b] = [all, other].map((each) => {
    const lineage = new Lineage();
    each.forEach(([author, operation], revision) =>
      lineage.note(revision, author, operation)
    );
    return lineage;
  });
  assert.equal(a!.at(2), b!.at(2));
  assert.notEqual(a!.at(3), b!.at(3));
});

Deno.test("a lineage of the longest operations names them the same whether held or digested at once", () => {
  const limit = 262_144;
  const all: [number, TextOperation][] = [];
  let length = 0;
  for (let revision = 0; revision < LINEAGE_DEPTH; revision++) {
    // Each replaces the whole text with another of the limit's length.
    const operation = new TextOperation().delete(length).insert(
      String.fromCharCode(97 + revision).repeat(limit),
    );
    length = operation.targetLength;
    all.push([revision, operation]);
  }
  const lineage = new Lineage();
  all.forEach(([author, operation], revision) =>
    lineage.note(revision, author, operation)
  );
  const expected = chained(all);
  for (let revision = 1; revision <= LINEAGE_DEPTH; revision++) {
    assert.equal(lineage.at(revision), expected[revision - 1]);
  }
});

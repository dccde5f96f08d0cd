// Seeded random property tests of the operation laws, the text buffer, the
// builder's normal form and error cases, and unit tests of pad ids and URLs.
// Each property names its seed and case in the failure message, so a failure
// replays exactly.

import assert from "node:assert/strict";
import { type Component, TextOperation } from "../src/operation.ts";
import { TextBuffer } from "../src/text_buffer.ts";
import { checkPadId, MAX_PAD_ID_LENGTH } from "../src/pad_id.ts";
import { apiUrl, editorUrl, parseBaseUrl, socketUrl } from "../src/urls.ts";
import { ALPHABET, Random } from "./_random.ts";

const CASES = 500;
const FAMILY = "👨‍👨‍👦‍👦";

/** Code point length, the slow obvious way. */
function cpLength(text: string): number {
  return [...text].length;
}

/** Run `check` on `CASES` random cases, naming the seed and case on failure. */
function property(
  seed: number,
  check: (random: Random, where: string) => void,
  cases = CASES,
): void {
  const random = new Random(seed);
  for (let i = 0; i < cases; i++) check(random, `seed ${seed}, case ${i}`);
}

/** Apply raw components naively, on an array of code points. */
function naiveApply(components: readonly Component[], text: string): string {
  const chars = [...text];
  const out: string[] = [];
  let index = 0;
  for (const component of components) {
    if (typeof component === "string") out.push(component);
    else if (component > 0) {
      out.push(...chars.slice(index, index + component));
      index += component;
    } else index -= component;
  }
  assert.equal(index, chars.length, "the raw operation covers the text");
  return out.join("");
}

/** Whether components are in normal form. */
function assertNormalForm(components: readonly Component[], where: string) {
  for (const [i, component] of components.entries()) {
    assert.ok(component !== 0 && component !== "", `${where}: zero at ${i}`);
    const previous = components[i - 1];
    if (previous === undefined) continue;
    const kind = (c: Component) =>
      typeof c === "string" ? "insert" : c > 0 ? "retain" : "delete";
    assert.notEqual(kind(previous), kind(component), `${where}: merge at ${i}`);
    assert.ok(
      !(kind(previous) === "delete" && kind(component) === "insert"),
      `${where}: insert after delete at ${i}`,
    );
  }
}

// ---------------------------------------------------------------------------
// Laws

Deno.test("`transform()` makes both orders converge on random operations", () => {
  property(1, (random, where) => {
    const text = random.text(random.int(16));
    const a = random.operation(text);
    const b = random.operation(text);
    const [aPrime, bPrime] = a.transform(b);
    assert.equal(aPrime.baseLength, b.targetLength, where);
    assert.equal(bPrime.baseLength, a.targetLength, where);
    assert.equal(
      bPrime.apply(a.apply(text)),
      aPrime.apply(b.apply(text)),
      `${where}: ${JSON.stringify({ text, a, b })}`,
    );
  });
});

Deno.test("`transform()` puts the first operation's insert first at a tie", () => {
  property(2, (random, where) => {
    const text = random.text(random.int(10));
    const length = cpLength(text);
    const at = random.int(length + 1);
    const mine = random.text(random.between(1, 4));
    const theirs = random.text(random.between(1, 4));
    const a = new TextOperation().retain(at).insert(mine).retain(length - at);
    const b = new TextOperation().retain(at).insert(theirs).retain(
      length - at,
    );
    const [aPrime] = a.transform(b);
    const chars = [...text];
    const expected = chars.slice(0, at).join("") + mine + theirs +
      chars.slice(at).join("");
    assert.equal(aPrime.apply(b.apply(text)), expected, where);
  });
});

Deno.test("`compose()` has the effect of both operations in turn", () => {
  property(3, (random, where) => {
    const text = random.text(random.int(16));
    const a = random.operation(text);
    const middle = a.apply(text);
    const b = random.operation(middle);
    const composed = a.compose(b);
    assert.equal(composed.baseLength, a.baseLength, where);
    assert.equal(composed.targetLength, b.targetLength, where);
    assertNormalForm(composed.components, where);
    assert.equal(
      composed.apply(text),
      b.apply(middle),
      `${where}: ${JSON.stringify({ text, a, b })}`,
    );
  });
});

Deno.test("`invert()` undoes the operation on random texts", () => {
  property(4, (random, where) => {
    const text = random.text(random.int(16));
    const op = random.operation(text);
    const inverse = op.invert(text);
    assert.equal(inverse.baseLength, op.targetLength, where);
    assert.equal(inverse.targetLength, op.baseLength, where);
    assert.equal(inverse.apply(op.apply(text)), text, where);
    assert.ok(op.compose(inverse).apply(text) === text, where);
  });
});

Deno.test("`fromJSON()` reads back what `toJSON()` wrote", () => {
  property(5, (random, where) => {
    const op = random.operation(random.text(random.int(16)));
    const copy = TextOperation.fromJSON(JSON.parse(JSON.stringify(op)));
    assert.ok(copy.equals(op), where);
    assert.deepEqual(copy.toJSON(), op.toJSON(), where);
    assert.equal(copy.baseLength, op.baseLength, where);
    assert.equal(copy.targetLength, op.targetLength, where);
  });
});

Deno.test("`fromJSON()` normalises any raw component list without changing its effect", () => {
  property(6, (random, where) => {
    const raw: Component[] = [];
    let baseLength = 0;
    for (let n = random.int(12); n > 0; n--) {
      const count = random.int(4); // zero included on purpose
      switch (random.int(3)) {
        case 0:
          raw.push(count);
          baseLength += count;
          break;
        case 1:
          raw.push(-count);
          baseLength += count;
          break;
        default:
          raw.push(random.text(count));
      }
    }
    const text = random.text(baseLength);
    const op = TextOperation.fromJSON(raw);
    const at = `${where}: ${JSON.stringify(raw)}`;
    assertNormalForm(op.components, at);
    assert.equal(op.baseLength, baseLength, at);
    assert.equal(op.apply(text), naiveApply(raw, text), at);
    assert.equal(op.targetLength, cpLength(op.apply(text)), at);
  });
});

Deno.test("`TextOperation` lengths count code points on random texts", () => {
  property(7, (random, where) => {
    const text = random.text(random.int(40));
    const length = cpLength(text);
    assert.equal(new TextOperation().insert(text).targetLength, length, where);
    assert.equal(new TextOperation().delete(length).apply(text), "", where);
    assert.equal(new TextOperation().retain(length).apply(text), text, where);
    assert.equal(new TextBuffer(text).length, length, where);
  });
});

Deno.test("`TextOperation` counts the family emoji as 7 code points", () => {
  assert.equal(FAMILY.length, 11);
  assert.equal(new TextOperation().insert(FAMILY).targetLength, 7);
  assert.equal(new TextBuffer(FAMILY).length, 7);
  assert.equal(TextOperation.fromJSON([7, "!"]).apply(FAMILY), `${FAMILY}!`);
  // Deleting the first code point leaves the joiner in front.
  assert.equal(TextOperation.fromJSON([-1, 6]).apply(FAMILY), FAMILY.slice(2));
  assert.throws(() => TextOperation.fromJSON([11]).apply(FAMILY), RangeError);
  assert.equal(TextOperation.fromJSON(["🎉"]).targetLength, 1);
  assert.equal(TextOperation.fromJSON([1, -1, 1]).apply("🎉é😀"), "🎉😀");
});

// ---------------------------------------------------------------------------
// TextBuffer against TextOperation.apply

/** Replay `history` on a buffer and on a string, comparing at every step. */
function replay(text: string, history: TextOperation[], where: string): void {
  const buffer = new TextBuffer(text);
  let expected = text;
  for (const [i, op] of history.entries()) {
    expected = op.apply(expected);
    buffer.apply(op);
    assert.equal(buffer.length, cpLength(expected), `${where}, op ${i}`);
    assert.equal(buffer.toString(), expected, `${where}, op ${i}`);
  }
}

Deno.test("`TextBuffer.apply()` agrees with `TextOperation.apply()` on long random histories", () => {
  property(8, (random, where) => {
    const initial = random.text(random.between(2000, 7000));
    let text = initial;
    const history: TextOperation[] = [];
    for (let i = 0; i < 60; i++) {
      const length = cpLength(text);
      const op = random.int(4) === 0
        ? random.edit(length)
        : random.sparse(length, random.between(1, 6), 60);
      history.push(op);
      text = op.apply(text);
    }
    replay(initial, history, where);
  }, 20);
});

Deno.test("`TextBuffer.apply()` agrees with `TextOperation.apply()` at chunk boundaries with astral characters", () => {
  // 2048 UTF-16 units is the chunk size: put astral characters across every
  // boundary a chunk could end at, then edit right around them.
  const initial = "a".repeat(2047) + "🎉" + "b".repeat(2046) + "😀" +
    "c".repeat(2047) + FAMILY + "d".repeat(3000);
  const hot = [2046, 2047, 2048, 4094, 4095, 4096, 6143, 6144, 6150];
  property(10, (random, where) => {
    let text = initial;
    const history: TextOperation[] = [];
    for (let i = 0; i < 40; i++) {
      const length = cpLength(text);
      const at = Math.min(random.pick(hot) + random.between(-2, 2), length);
      const deleted = Math.min(random.int(3), length - at);
      const op = new TextOperation().retain(at).delete(deleted).insert(
        random.text(random.int(3), ["🎉", "😀", "x", "\u200d"]),
      ).retain(length - at - deleted);
      history.push(op);
      text = op.apply(text);
    }
    replay(initial, history, where);
  }, 20);
});

Deno.test("`TextBuffer.apply()` handles inserts and deletes far longer than a chunk", () => {
  const random = new Random(11);
  const big = random.text(9000);
  const history = [
    new TextOperation().insert(big),
    new TextOperation().retain(4500).insert(big).retain(4500),
    new TextOperation().retain(10).delete(17_000).retain(990),
    new TextOperation().delete(1000),
  ];
  replay("", history, "seed 11");
});

Deno.test("`TextBuffer.apply()` refuses an operation of the wrong length and keeps the text", () => {
  const buffer = new TextBuffer("h🎉llo");
  assert.throws(
    () => buffer.apply(TextOperation.fromJSON([6])),
    RangeError,
    "Cannot apply operation as its base length 6 differs from the text length: current length is 5",
  );
  assert.equal(buffer.toString(), "h🎉llo");
  assert.equal(buffer.length, 5);
});

// ---------------------------------------------------------------------------
// Builder normal form

Deno.test("`retain()`, `delete()` and `insert()` merge neighbours of the same kind", () => {
  assert.deepEqual(new TextOperation().retain(1).retain(2).toJSON(), [3]);
  assert.deepEqual(new TextOperation().delete(1).delete(2).toJSON(), [-3]);
  assert.deepEqual(
    new TextOperation().insert("a").insert("🎉").toJSON(),
    ["a🎉"],
  );
});

Deno.test("`insert()` moves an insert in front of a delete before it", () => {
  assert.deepEqual(
    new TextOperation().retain(2).delete(1).insert("n").retain(2).toJSON(),
    [2, "n", -1, 2],
  );
  assert.deepEqual(
    new TextOperation().insert("a").delete(1).insert("b").toJSON(),
    ["ab", -1],
  );
  assert.deepEqual(TextOperation.fromJSON([-1, "x"]).toJSON(), ["x", -1]);
});

Deno.test("`retain()`, `delete()` and `insert()` drop zero-length components", () => {
  const op = new TextOperation().retain(0).delete(0).insert("").retain(2)
    .retain(0).insert("").delete(0);
  assert.deepEqual(op.toJSON(), [2]);
  assert.deepEqual(TextOperation.fromJSON([0, "", -0, 0]).toJSON(), []);
  assert.deepEqual(TextOperation.fromJSON([1, 0, 1]).toJSON(), [2]);
});

Deno.test("`isNoop()` is true only for the empty operation and a single retain", () => {
  assert.ok(new TextOperation().isNoop());
  assert.ok(new TextOperation().retain(7).isNoop());
  assert.ok(!new TextOperation().delete(1).isNoop());
  assert.ok(!new TextOperation().insert("a").isNoop());
  assert.ok(!new TextOperation().retain(1).insert("a").isNoop());
});

Deno.test("`TextOperation` tracks base and target lengths as it builds", () => {
  const op = new TextOperation().retain(2).insert("🎉é").delete(3).retain(1);
  assert.equal(op.baseLength, 6);
  assert.equal(op.targetLength, 5);
});

Deno.test("`retain()` and `delete()` refuse counts that are not non-negative integers", () => {
  for (const count of [-1, 1.5, NaN, Infinity, 2 ** 53]) {
    assert.throws(() => new TextOperation().retain(count), RangeError);
    assert.throws(() => new TextOperation().delete(count), RangeError);
  }
  assert.throws(
    () => new TextOperation().retain(-1),
    {
      name: "RangeError",
      message:
        "Cannot retain as the count is not a non-negative integer: current value is -1",
    },
  );
});

// ---------------------------------------------------------------------------
// Error cases

Deno.test("`fromJSON()` refuses a value that is not an array", () => {
  for (const value of ["[1]", 3, null, undefined, {}, { 0: 1, length: 1 }]) {
    assert.throws(
      () => TextOperation.fromJSON(value),
      TypeError,
      JSON.stringify(value),
    );
  }
  assert.throws(() => TextOperation.fromJSON({ a: 1 }), {
    name: "TypeError",
    message:
      'Cannot read operation as it is not an array: current value is {"a":1}',
  });
});

Deno.test("`fromJSON()` refuses components that are not integers or strings", () => {
  for (
    const component of [
      1.5,
      -0.5,
      NaN,
      Infinity,
      2 ** 53,
      -(2 ** 53),
      true,
      null,
      {},
      [
        1,
      ],
      1n,
    ]
  ) {
    assert.throws(
      () => TextOperation.fromJSON([1, component]),
      TypeError,
      String(component),
    );
  }
  assert.throws(() => TextOperation.fromJSON([2, 1.5]), {
    name: "TypeError",
    message:
      "Cannot read operation component as it is not an integer or a string: current value is 1.5",
  });
});

Deno.test("`apply()` and `invert()` refuse a text of the wrong length with a RangeError", () => {
  const op = TextOperation.fromJSON([3, "x"]);
  for (const text of ["", "ab", "abcd", "🎉🎉", "a🎉bc"]) {
    assert.throws(() => op.apply(text), RangeError, JSON.stringify(text));
    assert.throws(() => op.invert(text), RangeError, JSON.stringify(text));
  }
  assert.equal(op.apply("a🎉b"), "a🎉bx");
  assert.throws(() => op.apply("ab"), {
    name: "RangeError",
    message:
      "Cannot apply operation as its base length 3 differs from the text length: current length is 2",
  });
});

Deno.test("`compose()` and `transform()` refuse operations whose lengths do not match", () => {
  const a = TextOperation.fromJSON([2, "x"]);
  assert.throws(() => a.compose(TextOperation.fromJSON([2])), RangeError);
  assert.throws(() => a.transform(TextOperation.fromJSON([3])), RangeError);
  assert.equal(a.compose(TextOperation.fromJSON([3])).toJSON().length, 2);
});

// ---------------------------------------------------------------------------
// Pad ids and URLs

Deno.test("`checkPadId()` accepts letters, digits, '.', '_' and '-' up to 256 characters", () => {
  for (
    const id of ["a", "abc", "A-Z_0.9", "...", ".a", "a..", "x".repeat(256)]
  ) {
    assert.equal(checkPadId(id), id);
  }
  assert.equal(MAX_PAD_ID_LENGTH, 256);
});

Deno.test("`checkPadId()` refuses ids that would not reach the server unchanged", () => {
  for (
    const id of [
      "",
      ".",
      "..",
      "a/b",
      "a b",
      "x".repeat(257),
      "%2e%2e",
      "a#b",
      "a?b",
      "é",
      "🎉",
      "a\\b",
    ]
  ) {
    assert.throws(() => checkPadId(id), TypeError, JSON.stringify(id));
  }
  assert.throws(() => checkPadId(""), {
    name: "TypeError",
    message:
      "Cannot use pad id as it is empty: a pad id is 1 to 256 letters, digits, '.', '_' or '-', and not '.' or '..'",
  });
});

Deno.test("`parseBaseUrl()` keeps a path prefix and ends it with a slash", () => {
  assert.equal(parseBaseUrl("https://rustpad.io").href, "https://rustpad.io/");
  assert.equal(
    parseBaseUrl("http://127.0.0.1:3030/pads/rustpad").href,
    "http://127.0.0.1:3030/pads/rustpad/",
  );
  assert.equal(
    parseBaseUrl(new URL("https://example.com/rustpad/")).href,
    "https://example.com/rustpad/",
  );
});

Deno.test("`parseBaseUrl()` refuses relative, non-http and decorated URLs", () => {
  for (
    const base of [
      "",
      "rustpad.io",
      "/api",
      "ftp://example.com",
      "ws://example.com",
      "file:///tmp",
      "http://example.com/?q=1",
      "http://example.com/#abc",
      "http://user:pass@example.com/",
    ]
  ) {
    assert.throws(() => parseBaseUrl(base), TypeError, base);
  }
  assert.throws(() => parseBaseUrl("rustpad.io"), {
    name: "TypeError",
    message:
      'Cannot use Rustpad URL as it is not an absolute URL: current value is "rustpad.io"',
  });
});

Deno.test("`apiUrl()` puts routes under the base URL's path prefix", () => {
  const base = parseBaseUrl("https://example.com/rustpad");
  assert.equal(
    apiUrl(base, "stats").href,
    "https://example.com/rustpad/api/stats",
  );
  assert.equal(
    apiUrl(base, "text/abc").href,
    "https://example.com/rustpad/api/text/abc",
  );
});

Deno.test("`socketUrl()` turns https into wss and http into ws, keeping the prefix", () => {
  assert.equal(
    socketUrl(parseBaseUrl("https://rustpad.io"), "abc").href,
    "wss://rustpad.io/api/socket/abc",
  );
  assert.equal(
    socketUrl(parseBaseUrl("http://127.0.0.1:3030/x"), "abc").href,
    "ws://127.0.0.1:3030/x/api/socket/abc",
  );
  assert.throws(
    () => socketUrl(parseBaseUrl("https://rustpad.io"), ".."),
    TypeError,
  );
});

Deno.test("`editorUrl()` puts the pad id after '#' under the prefix", () => {
  assert.equal(
    editorUrl(parseBaseUrl("https://rustpad.io"), "abc"),
    "https://rustpad.io/#abc",
  );
  assert.equal(
    editorUrl(parseBaseUrl("https://example.com/rustpad"), "a-b"),
    "https://example.com/rustpad/#a-b",
  );
  assert.throws(
    () => editorUrl(parseBaseUrl("https://rustpad.io"), "a b"),
    TypeError,
  );
});

// Keep the alphabet honest: it must exercise every kind of character.
Deno.test("random texts draw astral characters, joiners, U+E000 and U+FFFF", () => {
  const text = new Random(12).text(2000);
  for (
    const char of ["🎉", "😀", "👨", "\u200d", "\ue000", "\uffff", "é", "\n"]
  ) {
    assert.ok(ALPHABET.includes(char));
    assert.ok(text.includes(char), JSON.stringify(char));
  }
});

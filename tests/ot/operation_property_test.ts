// Seeded random property tests of the operation laws.
// Each property names its seed and case in the failure message, so a failure
// replays exactly.

import assert from "node:assert/strict";
import type { Component } from "../../src/ot/component.ts";
import { fromOwnedJSON, TextOperation } from "../../src/ot/operation.ts";
import { TextBuffer } from "../../src/ot/text_buffer.ts";
import { ALPHABET, cpLength, FAMILY, property, Random } from "../_random.ts";

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
    // What the builders make of the same components, one by one.
    const built = new TextOperation();
    for (const component of raw) {
      if (typeof component === "string") built.insert(component);
      else if (component >= 0) built.retain(component);
      else built.delete(-component);
    }
    assert.deepEqual(op.toJSON(), built.toJSON(), at);
    assert.equal(op.targetLength, built.targetLength, at);
    // Read from a list it may keep, the same operation.
    const owned = fromOwnedJSON(structuredClone(raw));
    assert.ok(owned.equals(op), at);
    assert.equal(owned.baseLength, op.baseLength, at);
    assert.equal(owned.targetLength, op.targetLength, at);
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

Deno.test("random texts draw astral characters, joiners, U+E000 and U+FFFF", () => {
  const text = new Random(12).text(2000);
  for (
    const char of ["🎉", "😀", "👨", "\u200d", "\ue000", "\uffff", "é", "\n"]
  ) {
    assert.ok(ALPHABET.includes(char));
    assert.ok(text.includes(char), JSON.stringify(char));
  }
});

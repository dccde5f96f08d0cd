import assert from "node:assert/strict";
import { TextOperation } from "../../src/mod.ts";
import { readVectors } from "../_vectors.ts";

const vectors = await readVectors("ot-ops.jsonl");
const op = (value: unknown): TextOperation => TextOperation.fromJSON(value);

Deno.test("ot-ops.jsonl holds all 1,890 vectors", () => {
  assert.deepEqual(vectors.length, 1890);
});

Deno.test("every golden vector of ot-ops.jsonl is reproduced exactly", () => {
  const counts: Record<string, number> = {};
  for (const [line, v] of vectors.entries()) {
    const where = `line ${line + 1}: ${JSON.stringify(v)}`;
    counts[String(v.kind)] = (counts[String(v.kind)] ?? 0) + 1;
    switch (v.kind) {
      case "apply":
        if (v.error) {
          assert.throws(
            () => op(v.op).apply(v.base as string),
            RangeError,
            where,
          );
        } else {
          const o = op(v.op);
          assert.deepEqual(o.apply(v.base as string), v.result, where);
          assert.deepEqual(o.baseLength, v.base_len, where);
          assert.deepEqual(o.targetLength, v.target_len, where);
          assert.deepEqual(o.isNoop(), v.is_noop, where);
        }
        break;
      case "normalize": {
        const o = op(v.input);
        assert.deepEqual(o.toJSON(), v.output, where);
        assert.deepEqual(o.baseLength, v.base_len, where);
        assert.deepEqual(o.targetLength, v.target_len, where);
        assert.deepEqual(o.isNoop(), v.is_noop, where);
        break;
      }
      case "transform":
        if (v.error) {
          assert.throws(() => op(v.a).transform(op(v.b)), RangeError, where);
        } else {
          const a = op(v.a);
          const b = op(v.b);
          const [aPrime, bPrime] = a.transform(b);
          assert.deepEqual(aPrime.toJSON(), v.a_prime, where);
          assert.deepEqual(bPrime.toJSON(), v.b_prime, where);
          const base = v.base as string;
          assert.deepEqual(aPrime.apply(b.apply(base)), v.result, where);
          assert.deepEqual(bPrime.apply(a.apply(base)), v.result, where);
        }
        break;
      case "compose":
        if (v.error) {
          assert.throws(() => op(v.a).compose(op(v.b)), RangeError, where);
        } else {
          const composed = op(v.a).compose(op(v.b));
          assert.deepEqual(composed.toJSON(), v.composed, where);
          assert.deepEqual(composed.apply(v.base as string), v.result, where);
        }
        break;
      case "transform_index":
        assert.deepEqual(
          op(v.op).transformIndex(v.position as number),
          v.result,
          where,
        );
        break;
      default:
        throw new Error(`Unknown vector kind at ${where}`);
    }
  }
  assert.deepEqual(counts, {
    apply: 330,
    normalize: 200,
    transform: 630,
    compose: 430,
    transform_index: 300,
  });
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

Deno.test("`fromJSON()` of a list already in normal form keeps a copy: changing the list later changes nothing", () => {
  const raw: (number | string)[] = [2, "é😀", -3, 4];
  const read = TextOperation.fromJSON(raw);
  raw[0] = 5;
  raw.push("!");
  assert.deepEqual(read.toJSON(), [2, "é😀", -3, 4]);
  assert.equal(read.baseLength, 9);
  assert.equal(read.targetLength, 8);
  assert.equal(read.apply("abcdefghi"), "abé😀fghi");
});

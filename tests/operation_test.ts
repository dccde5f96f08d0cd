import assert from "node:assert/strict";
import { TextOperation } from "../mod.ts";
import { readVectors } from "./_vectors.ts";

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

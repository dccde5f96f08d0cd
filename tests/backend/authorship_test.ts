import assert from "node:assert/strict";
import { Authorship } from "../../src/backend/_authorship.ts";
import { TextOperation } from "../../src/ot/operation.ts";
import type { UserId } from "../../src/rustpad/protocol.ts";
import { Random } from "../_random.ts";

/** Who wrote each code point, at which revision: the slow obvious way. */
type Model = { author: UserId | undefined; revision: number }[];

function applyToModel(
  model: Model,
  operation: TextOperation,
  author: UserId,
  revision: number,
): Model {
  const next: Model = [];
  let at = 0;
  for (const component of operation.components) {
    if (typeof component === "string") {
      for (const _ of component) next.push({ author, revision });
    } else if (component > 0) {
      next.push(...model.slice(at, at + component));
      at += component;
    } else at -= component;
  }
  return next;
}

function expand(authorship: Authorship): Model {
  const model: Model = [];
  for (const run of authorship.runs()) {
    assert.ok(run.length > 0, "no empty run is kept");
    for (let i = 0; i < run.length; i++) {
      model.push({ author: run.author, revision: run.revision });
    }
  }
  return model;
}

Deno.test("Authorship names the author and revision of every code point as a per-code-point model does, over random operations and chunk splits", () => {
  const random = new Random(31);
  let mostRuns = 0;
  for (let round = 0; round < 20; round++) {
    let text = random.text(random.int(300));
    const authorship = new Authorship([...text].length, 4);
    let model: Model = [...text].map(() => ({
      author: undefined,
      revision: 4,
    }));
    for (let step = 0; step < 120; step++) {
      const length = [...text].length;
      // Many small edits grow runs past a chunk's 128; long ones cut across
      // chunks.
      const operation = random.int(4) === 0
        ? random.operation(text, 40)
        : random.sparse(length, random.between(1, 6));
      const author = BigInt(random.int(3)) as UserId;
      authorship.apply(operation, author);
      model = applyToModel(model, operation, author, authorship.revision);
      text = operation.apply(text);
      const where = `round ${round}, step ${step}`;
      assert.equal(authorship.length, model.length, where);
      assert.deepEqual(expand(authorship), model, where);
      mostRuns = Math.max(mostRuns, authorship.runs().length);
    }
  }
  assert.ok(mostRuns > 2 * 128, `chunks were split: ${mostRuns} runs`);
});

Deno.test("Authorship writes an empty pad's first insert, and a pad emptied and written again", () => {
  const authorship = new Authorship(0, 0);
  authorship.apply(new TextOperation().insert("hello"), 1n as UserId);
  authorship.apply(new TextOperation().delete(5), 2n as UserId);
  assert.deepEqual(authorship.runs(), []);
  authorship.apply(new TextOperation().insert("again"), 3n as UserId);
  assert.deepEqual(authorship.runs(), [
    { length: 5, author: 3n, revision: 3 },
  ]);
});

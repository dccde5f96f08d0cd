// The operation algebra on edits the size a person or an agent makes:
// compose, transform, invert and apply of sparse operations on a
// 20,000-code-point text, and reading operations from JSON. Inputs are built
// once, outside the timed part; each case runs the same 200 pairs.

import { TextOperation } from "../src/ot/operation.ts";
import { Random } from "../src/ot/_random.ts";

const LENGTH = 20_000;
const PAIRS = 200;

const random = new Random(7);
const text = random.text(LENGTH);
const firsts: TextOperation[] = [];
const seconds: TextOperation[] = [];
const concurrent: TextOperation[] = [];
for (let i = 0; i < PAIRS; i++) {
  const first = random.sparse(LENGTH, 20);
  firsts.push(first);
  seconds.push(random.sparse(first.targetLength, 20));
  concurrent.push(random.sparse(LENGTH, 20));
}
const json = firsts.map((op) => op.toJSON());

Deno.bench("compose 200 pairs of sparse edits", { group: "algebra" }, () => {
  for (let i = 0; i < PAIRS; i++) {
    (firsts[i] as TextOperation).compose(seconds[i] as TextOperation);
  }
});

Deno.bench("transform 200 pairs of concurrent edits", {
  group: "algebra",
}, () => {
  for (let i = 0; i < PAIRS; i++) {
    (firsts[i] as TextOperation).transform(concurrent[i] as TextOperation);
  }
});

Deno.bench("invert 200 edits", { group: "algebra" }, () => {
  for (const op of firsts) op.invert(text);
});

Deno.bench("apply 200 edits to a string", { group: "algebra" }, () => {
  for (const op of firsts) op.apply(text);
});

Deno.bench("fromJSON 200 edits", { group: "algebra" }, () => {
  for (const components of json) TextOperation.fromJSON(components);
});

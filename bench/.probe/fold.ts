import { replayFixture } from "../replay.ts";
import { TextBuffer, TextOperation } from "../../src/ot/mod.ts";
const f = replayFixture();
console.log(typeof f.document, f.operations.length, Object.keys(f));
const ops = f.operations;
for (let r = 0; r < 4; r++) {
  let b = new TextBuffer(f.document);
  let t = performance.now(); for (const op of ops) b.apply(op); const a = performance.now() - t;
  b = new TextBuffer(f.document);
  t = performance.now(); const inv = []; for (const op of ops) inv.push(b.applyAndInvert(op)); const ai = performance.now() - t;
  t = performance.now(); const js = ops.map((o) => TextOperation.fromJSON(o.toJSON())); const parse = performance.now() - t;
  console.log("apply", a.toFixed(1), "applyAndInvert", ai.toFixed(1), "fromJSON", parse.toFixed(1));
}

import { replayFixture } from "../replay.ts";
import { TextBuffer, TextOperation } from "../../src/ot/mod.ts";
const f = replayFixture();
const first = new TextOperation().insert(f.document);
const mode = Deno.args[0];
const b = new TextBuffer("");
const t = performance.now();
if (mode === "apply") { b.apply(first); for (const op of f.operations) b.apply(op); }
else { b.applyAndInvert(first); for (const op of f.operations) b.applyAndInvert(op); }
console.log(mode, (performance.now() - t).toFixed(1));

import assert from "node:assert/strict";
import { TextOperation } from "../../src/ot/operation.ts";
import { RevisionLog } from "../../src/rustpad/revision_log.ts";
import { TextBuffer } from "../../src/ot/text_buffer.ts";
import { UndoHistory } from "../../src/rustpad/undo.ts";

const AGENT = 1;
const PERSON = 2;

/** A pad's history as a session keeps it, written to by hand. */
class Pad {
  text: TextBuffer;
  log: RevisionLog;

  constructor(text = "", capacity?: number) {
    this.text = new TextBuffer(text);
    this.log = new RevisionLog(capacity);
  }

  write(author: number, operation: TextOperation) {
    const inverse = this.text.applyAndInvert(operation);
    return this.log.append({ author, operation, inverse });
  }

  /** Replace the first `search` by `replace`. */
  replace(author: number, search: string, replace: string) {
    const text = this.text.toString();
    const at = [...text.slice(0, text.indexOf(search))].length;
    const length = [...text].length;
    const size = [...search].length;
    return this.write(
      author,
      new TextOperation().retain(at).delete(size).insert(replace)
        .retain(length - at - size),
    );
  }

  append(author: number, text: string) {
    const length = this.text.length;
    return this.write(author, new TextOperation().retain(length).insert(text));
  }

  get session() {
    return {
      oldestRevision: this.log.oldestRevision,
      revision: this.log.revision,
      operationsSince: (revision: number) => this.log.since(revision),
    };
  }

  /** Undo the latest own edit as the tool does, and mark it. */
  undo(history: UndoHistory): void {
    const undone = history.latest("a", "p")!;
    const entry = this.write(AGENT, history.rebuild("a", "p", this.session));
    history.record("a", "p", entry);
    history.markUndo("a", "p", entry.revision, AGENT, undone);
  }
}

Deno.test("UndoHistory keeps the newest 100 own edits per pad, newest first", () => {
  const pad = new Pad();
  const history = new UndoHistory();
  for (let i = 0; i < 120; i++) {
    history.record("a", "p", pad.append(AGENT, "x"));
  }
  assert.equal(history.count("a", "p"), 100);
  assert.equal(history.latest("a", "p"), 119);
  assert.equal(history.count("a", "q"), 0);
  assert.equal(history.latest("a", "q"), undefined);
});

Deno.test("UndoHistory undoes the same edits however long its record grows: 600 random edits, undos and people's appends against a model stack", () => {
  const depth = 5;
  const pad = new Pad();
  const history = new UndoHistory(depth);
  const model: string[] = [];
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let i = 0; i < 600; i++) {
    const roll = random();
    if (roll < 0.5) {
      const token = `<${i}>`;
      history.record("a", "p", pad.append(AGENT, token));
      model.push(token);
      if (model.length > depth) model.shift();
    } else if (roll < 0.8 && model.length > 0) {
      pad.undo(history);
      const undone = model.pop()!;
      assert.ok(!pad.text.toString().includes(undone), `step ${i}: ${undone}`);
    } else {
      pad.append(PERSON, ".");
    }
    assert.equal(history.count("a", "p"), model.length, `step ${i}`);
    for (const token of model) assert.ok(pad.text.toString().includes(token));
  }
});

Deno.test("UndoHistory ignores no-op edits", () => {
  const pad = new Pad("abc");
  const history = new UndoHistory();
  history.record("a", "p", pad.write(AGENT, TextOperation.fromJSON([3])));
  assert.equal(history.count("a", "p"), 0);
  assert.throws(
    () => history.rebuild("a", "p", pad.session),
    /Cannot undo on pad "p" as you have no edit of your own left/,
  );
});

Deno.test("UndoHistory takes an undone edit off whether the undo is marked before or after it is recorded", () => {
  const pad = new Pad();
  const history = new UndoHistory();
  history.record("a", "p", pad.append(AGENT, "a"));
  history.record("a", "p", pad.append(AGENT, "b"));
  const first = pad.write(AGENT, history.rebuild("a", "p", pad.session));
  history.markUndo("a", "p", first.revision, AGENT, 1);
  assert.equal(history.latest("a", "p"), 0);
  history.record("a", "p", first);
  assert.equal(history.latest("a", "p"), 0);
  const second = pad.write(AGENT, history.rebuild("a", "p", pad.session));
  history.record("a", "p", second);
  assert.equal(history.latest("a", "p"), 3, "recorded as an edit until marked");
  history.markUndo("a", "p", second.revision, AGENT, 0);
  assert.equal(history.count("a", "p"), 0);
  assert.equal(pad.text.toString(), "");
});

Deno.test("UndoHistory undoes an append and a replace of it in turn, its own undos cancelling out", () => {
  const pad = new Pad("base ");
  const history = new UndoHistory();
  history.record("a", "p", pad.append(AGENT, "⟦a⟧"));
  history.record("a", "p", pad.replace(AGENT, "⟦a⟧", "⟦r⟧"));
  pad.undo(history);
  assert.equal(pad.text.toString(), "base ⟦a⟧");
  pad.undo(history);
  assert.equal(pad.text.toString(), "base ");
  assert.equal(history.count("a", "p"), 0);
});

Deno.test("UndoHistory keeps what a person wrote before, between and after the agent's edits", () => {
  const pad = new Pad();
  const history = new UndoHistory();
  pad.append(PERSON, "p0 ");
  history.record("a", "p", pad.append(AGENT, "[a]"));
  pad.write(PERSON, TextOperation.fromJSON(["p1 ", 6]));
  history.record("a", "p", pad.replace(AGENT, "[a]", "[A]"));
  pad.append(PERSON, " p2");
  pad.undo(history);
  assert.equal(pad.text.toString(), "p1 p0 [a] p2");
  pad.write(PERSON, TextOperation.fromJSON([7, "p3", 5]));
  pad.undo(history);
  assert.equal(pad.text.toString(), "p1 p0 p3 p2");
});

Deno.test("UndoHistory rebuilds an empty undo when people deleted what the edit wrote, and a drop skips it", () => {
  const pad = new Pad();
  const history = new UndoHistory();
  history.record("a", "p", pad.append(AGENT, "keep "));
  history.record("a", "p", pad.append(AGENT, "gone"));
  pad.replace(PERSON, "gone", "");
  assert.ok(history.rebuild("a", "p", pad.session).isNoop());
  history.drop("a", "p", 1, pad.log.revision);
  assert.equal(history.latest("a", "p"), 0);
  history.record("a", "p", pad.append(AGENT, "new"));
  pad.undo(history);
  assert.equal(pad.text.toString(), "keep ");
  pad.append(PERSON, "!");
  pad.undo(history);
  assert.equal(pad.text.toString(), "!");
});

Deno.test("UndoHistory refuses an edit the history no longer holds: another author there, or older than the window", () => {
  const history = new UndoHistory();
  const before = new Pad();
  history.record("a", "p", before.append(AGENT, "mine"));
  const restarted = new Pad();
  restarted.append(PERSON, "theirs");
  assert.throws(
    () => history.rebuild("a", "p", restarted.session),
    /Cannot undo your edit of revision 1 on pad "p" as the pad's history no longer holds it .*Nothing was changed/,
  );
  const small = new Pad("", 2);
  const window = new UndoHistory();
  window.record("a", "p", small.append(AGENT, "a"));
  small.append(PERSON, "b");
  small.append(PERSON, "c");
  small.append(PERSON, "d");
  assert.throws(
    () => window.rebuild("a", "p", small.session),
    /Cannot undo your edit of revision 1 on pad "p" as the history kept starts later: current oldest revision is 2/,
  );
});

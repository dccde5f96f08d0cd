// SessionPool and PadSession across a pad server that restarts like Rustpad
// (closed and started again on its port and its in-memory PadDatabase: each
// pad back at revision 1 as one insert of its text): the history's digests
// tell the new history from the old, the pool finds the restart on the next
// connection, and a revision of the old history is stale until one of the
// new is shown.

import assert from "node:assert/strict";
import { SessionPool, TextOperation } from "../../src/mod.ts";
import { PadDatabase, startPadServer } from "../../src/testing/mod.ts";
import { waitFor } from "../_wait.ts";
import { RawPerson } from "../_person.ts";

const append = (text: string) => (session: { length: number }) =>
  new TextOperation().retain(session.length).insert(text);

Deno.test("`SessionPool.staleRevision()` names a Rustpad-style restart for revisions of the old history, not for 0 or revisions shown since", async () => {
  const database = new PadDatabase();
  let pads = await startPadServer({ database, snapshotIntervalMs: 0 });
  const { port } = pads;
  await using pool = new SessionPool(pads.url, { timeoutMs: 2000 });
  try {
    for (const line of ["a\n", "b\n", "c\n"]) {
      await pool.edit("p", append(line));
    }
    const old = await pool.get("p");
    assert.equal(old.revision, 3);
    assert.equal(pool.staleRevision(old, 3), undefined, "no restart yet");
    const oldLineage = old.lineageAt(3);
    pads.snapshot();
    await pads.close();
    pads = await startPadServer({ database, port, snapshotIntervalMs: 0 });
    const fresh = await pool.get("p");
    assert.notEqual(fresh, old);
    assert.equal(fresh.revision, 1);
    assert.equal(fresh.text, "a\nb\nc\n");
    assert.deepEqual(pool.restartOn(fresh), { revision: 1, before: 3 });
    assert.notEqual(fresh.lineageAt(1), old.lineageAt(1));
    assert.equal(fresh.lineageAt(3), undefined, "past the new history");
    assert.equal(old.lineageAt(3), oldLineage, "the old session's is kept");
    for (const revision of [1, 2, 3, 7]) {
      assert.deepEqual(
        pool.staleRevision(fresh, revision),
        { revision: 1, before: 3 },
        `revision ${revision}`,
      );
    }
    assert.equal(pool.staleRevision(fresh, 0), undefined, "the empty pad");
    // Written since: revision 2 of the new history is this history's.
    const written = await pool.edit("p", append("d\n"));
    assert.equal(written.revision, 2);
    assert.equal(pool.staleRevision(fresh, 2), undefined);
    assert.ok(pool.staleRevision(fresh, 3), "3 was never shown since");
    // Another process types past what the old history reached: those
    // revisions are the new history's, shown or not.
    await using other = new SessionPool(pads.url);
    for (const line of ["e\n", "f\n", "g\n"]) {
      await other.edit("p", append(line));
    }
    await waitFor(() => fresh.revision === 5, "the other process's lines");
    assert.equal(pool.staleRevision(fresh, 4), undefined);
    assert.equal(pool.staleRevision(fresh, 5), undefined);
    assert.ok(pool.staleRevision(fresh, 6), "ahead of the pad");
    assert.ok(pool.staleRevision(fresh, 3), "3 is still the old history's");
    pool.noteShown("p", 3);
    assert.equal(pool.staleRevision(fresh, 3), undefined, "3 shown since");
  } finally {
    await pads.close();
  }
});

Deno.test("`SessionPool` finds no restart when a pad is opened again on the same history, after an idle close", async () => {
  await using pads = await startPadServer();
  await using pool = new SessionPool(pads.url, { idleMs: 50 });
  await pool.edit("q", append("x"));
  await pool.edit("q", append("y"));
  const first = await pool.get("q");
  while (first.isOpen) await new Promise((resolve) => setTimeout(resolve, 20));
  const again = await pool.get("q");
  assert.notEqual(again, first);
  assert.equal(pool.restartOn(again), undefined);
  assert.equal(pool.staleRevision(again, 1), undefined);
  assert.equal(again.lineageAt(2), first.lineageAt(2));
  assert.equal(again.operationDigest(1), first.operationDigest(1));
});

Deno.test("`PadSession.lineageAt()` differs for a history that starts with the same text by another author, and `operationDigest()` names each operation", async () => {
  const database = new PadDatabase();
  await using pads = await startPadServer({
    database,
    pads: { restored: { text: "same" } },
  });
  await using pool = new SessionPool(pads.url);
  await pool.edit("typed", append("same"));
  const typed = await pool.get("typed");
  const restored = await pool.get("restored");
  assert.equal(typed.text, restored.text);
  assert.notEqual(typed.lineageAt(1), restored.lineageAt(1));
  assert.equal(typed.lineageAt(0), "");
  assert.equal(typed.operationDigest(0), typed.lineageAt(1));
  assert.equal(typed.operationDigest(1), undefined, "not there yet");
});

Deno.test("`SessionPool.landedElsewhere()` says unknown, not landed, for an edit sent before a Rustpad-style restart, though a person with the sender's id typed after it", async () => {
  const database = new PadDatabase();
  let pads = await startPadServer({ database, snapshotIntervalMs: 0 });
  const { port } = pads;
  try {
    // A replica that stopped: it had recorded where its edit went.
    const sent = await (async () => {
      await using stopped = new SessionPool(pads.url);
      await stopped.edit("r", append("kept\n"));
      const session = await stopped.get("r");
      const { userId, revision } = session;
      return { userId, revision, lineage: session.lineageAt(revision) };
    })();
    assert.equal(sent.userId, 0);
    pads.snapshot();
    await pads.close();
    pads = await startPadServer({ database, port, snapshotIntervalMs: 0 });
    // After the restart a person is user 0 too, and types at revision 1.
    await using person = await RawPerson.open(pads.url, "r");
    assert.equal(person.id, 0);
    await person.edit(new TextOperation().retain(5).insert("theirs\n"));
    await using retrying = new SessionPool(pads.url, { timeoutMs: 1000 });
    await assert.rejects(
      retrying.landedElsewhere("r", sent),
      /The pad restarted since the edit was sent \(its history no longer begins as it did; it is at revision 2 now\), so whether the edit landed is unknown: read the pad before trying again/,
    );
    assert.equal(pads.text("r"), "kept\ntheirs\n");
  } finally {
    await pads.close();
  }
});

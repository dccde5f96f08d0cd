// Helpers for write-tool tests: a named person in a pad (a session that
// announces a display name) and waiting for the server to see a revision.

import { PadSession, TextOperation } from "../../src/mod.ts";
import { type Harness, structured, waitFor } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";

/** Fill a pad through the agent. */
export async function padWith(
  h: Harness,
  id: string,
  text: string,
): Promise<void> {
  structured(await h.call("append_to_document", { id, text }));
}

/** The revision the MCP server's session is at, read as an agent would. */
export async function revisionOf(h: Harness, id: string): Promise<number> {
  return structured(await h.call("get_document_info", { id }))
    .revision as number;
}

/** Wait until the MCP server's session has seen revision `revision`. */
export async function untilServerSees(
  h: Harness,
  id: string,
  revision: number,
): Promise<void> {
  await waitFor(
    async () => await revisionOf(h, id) >= revision,
    `the server to see revision ${revision}`,
  );
}

/** A person in a pad under a display name. */
export async function person(
  h: Harness,
  id: string,
  name: string,
): Promise<PadSession> {
  return await PadSession.open(h.pads.url, id, { user: { name, hue: 10 } });
}

/**
 * The person replaces `search` (its first occurrence) with `replace`, then
 * waits until the MCP server has seen it.
 */
export async function personReplaces(
  h: Harness,
  session: PadSession,
  search: string,
  replace: string,
): Promise<void> {
  const text = session.text;
  const at = text.indexOf(search);
  if (at === -1) throw new Error(`"${search}" is not in the pad`);
  const length = (value: string) => [...value].length;
  const before = length(text.slice(0, at));
  const operation = new TextOperation().retain(before).delete(length(search))
    .insert(replace).retain(length(text) - before - length(search));
  const ack = await session.submit(operation);
  await untilServerSees(h, session.padId, ack.revision);
}

/** A pad with a person, Ann, whose caret is at `caret` in `text`. */
export async function padWithAnn(
  h: Harness,
  id: string,
  text: string,
  caret: number,
): Promise<RawPerson> {
  const person = await RawPerson.open(h.pads.url, id);
  person.announce("Ann");
  await person.type(0, text);
  person.moveCursor(caret);
  // The agent joins and learns where Ann is.
  await waitFor(async () => {
    const info = structured(await h.call("get_document_info", { id }));
    const people = info.people as { cursors: { offset: number }[] }[];
    return people[0]?.cursors[0]?.offset === caret;
  }, "the agent to see Ann's cursor");
  return person;
}

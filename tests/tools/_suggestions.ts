// Suggestion tests' harness: an agent over the SDK client, a pad server
// whose suggestions API is served from that agent's backend (as
// --embedded wires it), and the API's calls as a person's page makes them.

import { connect, type Harness, type HarnessOptions } from "../_mcp.ts";
import { startPadServer } from "../../src/testing/mod.ts";
import type { SuggestionDesk } from "../../src/pad_server/mod.ts";
import { RawPerson } from "../_person.ts";

/** An agent harness whose pad server decides through the agent's backend. */
export async function connectWithDesk(
  options: HarnessOptions = {},
): Promise<Harness> {
  // The backend is made after the pad server, which needs the desk first.
  const agent: { harness?: Harness } = {};
  const book = () => agent.harness!.server.backend.suggestions;
  const desk: SuggestionDesk = {
    list: (pad) => book().list(pad),
    decide: (pad, id, verdict, by) => book().decide(pad, id, verdict, by),
  };
  const pads = await startPadServer({ suggestions: desk });
  const connected = await connect({ ...options, pads });
  agent.harness = {
    ...connected,
    async [Symbol.asyncDispose]() {
      await connected[Symbol.asyncDispose]();
      await pads.close();
    },
  };
  return agent.harness;
}

/** `GET /api/suggestions/{id}`'s JSON. */
export async function listed(
  h: Harness,
  id: string,
): Promise<{
  revision: number;
  suggestions: {
    id: string;
    status: string;
    hunks: { from: number; to: number; deleted: string; inserted: string }[];
    reason?: string;
    decidedBy?: string;
    landedRevision?: number;
  }[];
  agentIds: number[];
}> {
  const response = await fetch(`${h.pads.url}/api/suggestions/${id}`);
  if (response.status !== 200) {
    throw new Error(`GET suggestions answered ${response.status}`);
  }
  return await response.json();
}

/**
 * `POST /api/suggestions/{id}/{suggestion}` on `h`'s pad server (a
 * harness's, or any): its status and JSON. With
 * `by`, as a person of that name in the pad (their pad socket's user id;
 * the pad server names them by what the socket announced).
 */
export async function decide(
  h: { pads: { url: string } },
  id: string,
  suggestion: string,
  verdict: "accept" | "reject",
  by?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  await using person = by === undefined
    ? undefined
    : await RawPerson.open(h.pads.url, id);
  if (by !== undefined) await person!.introduce(by);
  const response = await fetch(
    `${h.pads.url}/api/suggestions/${id}/${suggestion}`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        verdict,
        ...(person !== undefined && { user_id: person.id }),
      }),
    },
  );
  return { status: response.status, body: await response.json() };
}

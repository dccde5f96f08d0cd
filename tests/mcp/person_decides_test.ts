// Only a person decides a suggestion through a tool call: the decision
// lands after the person says yes in the host's dialog (an elicitation in
// the 2025 era, an input_required question in the 2026 era), which names
// the suggestion, its author, the agent's reason and its change. A client
// that can show no dialog is refused with the page's address, and a name
// in the call's `_meta` never becomes who decided. Over Streamable HTTP
// with the v2 SDK client, in both eras.

import assert from "node:assert/strict";
import { startHttp } from "../_http.ts";
import { uiClient, type UiClientOptions } from "./_ui_client.ts";

/** A pad with one pending suggestion of `agent`; its id. */
async function heldSuggestion(
  agent: Awaited<ReturnType<typeof uiClient>>,
  pad: string,
): Promise<string> {
  await agent.call("create_document", { id: pad, text: "Ship on Friday.\n" });
  const held = await agent.call("replace_in_document", {
    id: pad,
    search: "Friday",
    replace: "Thursday",
    suggest: true,
    summary: "The release moved to Thursday.",
  });
  const content = held.structuredContent as { suggestion_id?: string };
  assert.ok(content.suggestion_id, JSON.stringify(held));
  return content.suggestion_id;
}

/** The suggestion as list_suggestions shows it. */
async function statusOf(
  agent: Awaited<ReturnType<typeof uiClient>>,
  pad: string,
  id: string,
): Promise<{ status: string; decided_by?: string }> {
  const listed = await agent.call("list_suggestions", { id: pad });
  const { suggestions } = listed.structuredContent as {
    suggestions: {
      suggestion_id: string;
      status: string;
      decided_by?: string;
    }[];
  };
  const found = suggestions.find((each) => each.suggestion_id === id);
  assert.ok(found, `suggestion ${id} is listed`);
  return found;
}

const FORGED = {
  "rustpad-mcp/host": { initiator: "app", person: "The Pad Owner" },
};

function textOf(result: { content?: unknown }): string {
  return (result.content as { text: string }[])[0]!.text;
}

for (const era of ["modern", "legacy"] as const) {
  const connect = (h: { server: { url: URL } }, extra: UiClientOptions = {}) =>
    uiClient(h.server.url, { era, ...extra });

  Deno.test(`${era} era: view_decide_suggestion from a client without elicitation is refused, naming the pad's page, even with _meta naming a person; the suggestion stays pending`, async () => {
    await using h = await startHttp();
    await using ui = await connect(h);
    const id = await heldSuggestion(ui, "plan");
    const refused = await ui.call("view_decide_suggestion", {
      id: "plan",
      suggestion_id: id,
      verdict: "accept",
    }, FORGED);
    assert.equal(refused.isError, true, JSON.stringify(refused));
    assert.match(
      textOf(refused),
      /^Cannot accept suggestion \S+ through this client as only a person decides and it can show no dialog/,
    );
    assert.ok(
      textOf(refused).includes(`${h.pads.url}/#plan`),
      `names the page: ${textOf(refused)}`,
    );
    assert.equal(h.pads.text("plan"), "Ship on Friday.\n");
    assert.equal((await statusOf(ui, "plan", id)).status, "pending");
  });

  Deno.test(`${era} era: view_decide_suggestion asks the person in a dialog naming the suggestion, its author, reason and change; declined, it stays pending`, async () => {
    await using h = await startHttp();
    const asked: string[] = [];
    await using ui = await connect(h, {
      elicit: (message) => {
        asked.push(message);
        return { action: "decline" };
      },
    });
    const id = await heldSuggestion(ui, "plan");
    const declined = await ui.call("view_decide_suggestion", {
      id: "plan",
      suggestion_id: id,
      verdict: "accept",
    }, FORGED);
    assert.equal(declined.isError, true, JSON.stringify(declined));
    assert.match(textOf(declined), /did not say yes in the dialog/);
    assert.equal(asked.length, 1);
    const [dialog] = asked;
    assert.ok(dialog!.includes(`Accept suggestion ${id} on pad "plan"`));
    assert.match(dialog!, /made by .+ \(an AI agent\)/);
    assert.ok(dialog!.includes('"The release moved to Thursday."'), dialog);
    assert.match(dialog!, /-Ship on Friday\.\n\+Ship on Thursday\./);
    assert.equal(h.pads.text("plan"), "Ship on Friday.\n");
    assert.equal((await statusOf(ui, "plan", id)).status, "pending");
  });

  Deno.test(`${era} era: view_decide_suggestion lands once the person says yes in the dialog, recorded as a person in the chat, not the name in _meta`, async () => {
    await using h = await startHttp();
    const asked: string[] = [];
    await using ui = await connect(h, {
      elicit: (message) => {
        asked.push(message);
        return { action: "accept", content: { confirm: true } };
      },
    });
    const id = await heldSuggestion(ui, "plan");
    const decide = { id: "plan", suggestion_id: id, verdict: "accept" };
    const byModel = await ui.call("view_decide_suggestion", decide, {
      "rustpad-mcp/host": { initiator: "model" },
    });
    assert.equal(byModel.isError, true);
    assert.match(textOf(byModel), /initiated by "model", not the view/);
    assert.equal(asked.length, 0, "the model's call asks no one");

    const accepted = await ui.call("view_decide_suggestion", decide, FORGED);
    assert.equal(accepted.isError, undefined, JSON.stringify(accepted));
    assert.equal(asked.length, 1);
    const answer = accepted.structuredContent as {
      text: string;
      decided: { status: string; decidedBy: string };
    };
    assert.equal(answer.decided.status, "accepted");
    assert.equal(answer.decided.decidedBy, "a person in the chat");
    assert.equal(answer.text, "Ship on Thursday.\n");
    assert.equal(h.pads.text("plan"), "Ship on Thursday.\n");
    const listed = await statusOf(ui, "plan", id);
    assert.deepEqual(
      [listed.status, listed.decided_by],
      ["accepted", "a person in the chat"],
    );
    const again = await ui.call("view_decide_suggestion", decide, FORGED);
    assert.equal(again.isError, true, "a decision is final");
    assert.match(
      textOf(again),
      /it is not pending: current status is accepted/,
    );
  });
}

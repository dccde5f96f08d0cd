// The demo's suggestion: the scripted agent proposes a change instead of
// making it, with its reason (`summary`); the terminal tells the person to
// accept or reject it in the page, or to answer there; the agent waits for
// the verdict (wait_for_change reports decisions on its suggestions) and
// reports it.

// @ts-types="@modelcontextprotocol/sdk/client/index"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { PadSession } from "../mod.ts";
import type { Terminal } from "./_terminal.ts";

/** What the step needs of the demo. */
export interface SuggestionStep {
  /** Call a tool, printing the call and its answer. */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  client: Client;
  terminal: Terminal;
  /** The pad server's URL, ending in `/`. */
  baseUrl: string;
  pad: string;
  /** No browser expected: an unanswered terminal rejects. */
  once: boolean;
}

/** The agent's reason, as the people deciding read it. */
export const REASON =
  "Record that the plan shipped on Thursday, as the team agreed.";

/** A decision as wait_for_change reports it. */
interface Decision {
  suggestion_id: string;
  status: string;
  decided_by?: string;
}

/** Propose the change, let the person decide, and report the verdict. */
export async function suggestAndHear(step: SuggestionStep): Promise<void> {
  const { call, client, terminal, baseUrl, pad } = step;
  const held = await call("replace_in_document", {
    id: pad,
    search: "# Plan 🚀",
    replace: "# Plan 🚀 shipped on Thursday 🎉",
    suggest: true,
    summary: REASON,
  });
  const { suggestion_id: id, revision } = held.structuredContent as {
    suggestion_id: string;
    revision: number;
  };
  console.log(
    `\nThe agent suggests a change instead of making it. Accept or reject it in the page at ${baseUrl}#${pad} (beside the change, or in the Suggestions panel), or answer here.`,
  );
  const heard = verdict(client, pad, id, revision);
  // The terminal's answer, unless the page decides first.
  void terminal.ask("  Accept the suggestion from here?").then(
    async (yes) => {
      if (yes === undefined && !step.once) return;
      await decideAtTerminal(baseUrl, pad, id, yes === true);
    },
  );
  const decision = await heard;
  console.log(
    `The agent hears: suggestion ${id} ${decision.status}${
      decision.decided_by === undefined ? "" : ` by ${decision.decided_by}`
    }.`,
  );
}

/** Wait until wait_for_change reports the decision on suggestion `id`. */
async function verdict(
  client: Client,
  pad: string,
  id: string,
  since: number,
): Promise<Decision> {
  for (;;) {
    const result = await client.callTool({
      name: "wait_for_change",
      arguments: { id: pad, since_revision: since, timeout_seconds: 50 },
    }) as CallToolResult;
    const answer = result.structuredContent as {
      revision?: number;
      decisions?: Decision[];
    };
    const found = answer.decisions?.find((each) => each.suggestion_id === id);
    if (found !== undefined) return found;
    since = answer.revision ?? since;
  }
}

/**
 * Decide at the terminal's word, as a person in the pad named "You, at the
 * terminal" (the pad server names who decides by their pad socket).
 */
async function decideAtTerminal(
  baseUrl: string,
  pad: string,
  id: string,
  accept: boolean,
): Promise<void> {
  const you = await PadSession.open(baseUrl, pad, {
    user: { name: "You, at the terminal", hue: 140 },
  });
  try {
    await you.roundTrip();
    const response = await fetch(`${baseUrl}api/suggestions/${pad}/${id}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        verdict: accept ? "accept" : "reject",
        user_id: you.userId,
      }),
    });
    // 409: the page decided first; that verdict stands.
    await response.body?.cancel();
  } finally {
    await you.close();
  }
}

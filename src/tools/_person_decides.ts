// Only a person decides a suggestion through a tool call: the decision
// lands after the person says yes in a dialog the host shows, which names
// the suggestion, its author, the agent's reason and its change. The
// dialog is the one destructive writes use (safety/confirmation.ts): an
// elicitation in the 2025 era, an `input_required` question in the 2026
// era, whose sealed token binds the suggestion as the person saw it. A
// client that can show no dialog is refused, with the page's address,
// where people decide; nothing the caller says in `_meta` names a person.

import type { SuggestionEntry } from "../backend/suggestions.ts";
import { padUrl } from "./_shared.ts";
import type { ToolCall, ToolContext } from "./tool.ts";

/** The tool the decisions are asked for, which the token binds. */
const TOOL = "view_decide_suggestion";
/** The longest part of the diff a dialog quotes, in UTF-16 units. */
const MAX_DIFF_IN_DIALOG = 1500;
/** Who decided, as a decision through a host's dialog records it. */
export const DIALOG_PERSON = "a person in the chat";

/** What the person was asked, and what came of it. */
export type PersonAnswer =
  | { readonly status: "yes" }
  | { readonly status: "asking"; readonly token: string; message: string };

/** The question the dialog asks, naming everything the person decides on. */
function question(
  record: SuggestionEntry,
  verdict: "accept" | "reject",
): string {
  const diff = record.diff.length > MAX_DIFF_IN_DIALOG
    ? `${
      record.diff.slice(0, MAX_DIFF_IN_DIALOG)
    }\n… (cut: the pad's page shows all of it)`
    : record.diff;
  const change = record.language !== undefined
    ? `Sets the pad's language to ${record.language}.`
    : `Its change:\n${diff}`;
  return `${
    verdict === "accept" ? "Accept" : "Reject"
  } suggestion ${record.id} on pad ${
    JSON.stringify(record.pad)
  }, made by ${record.author.name} (an AI agent)?\nIts reason, in the agent's words: ${
    JSON.stringify(record.summary)
  }\n${change}\nCheck Confirm to ${verdict} it; anything else leaves it pending.`;
}

/**
 * Ask the person in the host's dialog whether `verdict` on the pending
 * `record` is theirs.
 *
 * @returns `yes`, or `asking` with the token for an `input_required`
 * question (2026 era).
 * @throws {Error} When the client can show no dialog (naming the page),
 * and when the person declines or dismisses it: the suggestion stays
 * pending.
 */
export async function askPerson(
  context: ToolContext,
  call: ToolCall,
  record: SuggestionEntry,
  verdict: "accept" | "reject",
): Promise<PersonAnswer> {
  const { id, pad } = record;
  const asks = context.config.elicitation && call.asks === true;
  if (!asks && call.confirmToken === undefined) {
    throw new Error(
      `Cannot ${verdict} suggestion ${id} through this client as only a person decides and it can show no dialog to ask them: current client declares no form elicitation${
        context.config.elicitation ? "" : " (or RUSTPAD_ELICITATION is off)"
      }. Nothing was changed; the suggestion stays pending: a person decides it in the pad's page at ${
        padUrl(context, pad)
      }`,
    );
  }
  const message = question(record, verdict);
  const outcome = await context.guard.check({
    identity: context.identity,
    tool: TOOL,
    padId: pad,
    binding: { suggestion_id: id, verdict },
    // What the person saw: a token for another suggestion, or for this one
    // changed, is refused.
    content: JSON.stringify([id, record.author.name, record.summary, message]),
    revision: 0,
    message,
  }, {
    token: call.confirmToken,
    elicit: asks ? call.elicit : undefined,
  });
  if (outcome.status === "confirmed") return { status: "yes" };
  if (outcome.status === "confirmation_required") {
    return {
      status: "asking",
      token: outcome.confirm_token,
      message: outcome.message,
    };
  }
  throw new Error(
    `Cannot ${verdict} suggestion ${id} as the person did not say yes in the dialog: ${outcome.message} The suggestion stays pending; they can decide it in the pad's page at ${
      padUrl(context, pad)
    }`,
  );
}

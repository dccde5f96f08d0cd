/**
 * The tools of the pad's view in a chat (an MCP App): what the view calls
 * through its host, never the model (the MCP layer lists them with
 * `_meta.ui.visibility: ["app"]`, and only to a client that renders views).
 * `view_read_pad` reads the text with its pending suggestions,
 * `view_wait_pad` waits for the next revision or suggestion, and
 * `view_decide_suggestion` accepts or rejects one once the person says
 * yes in the host's dialog: it refuses a call its host says the model
 * made, and a client that can show no dialog.
 *
 * @module
 */

import { z } from "zod";
import type { SuggestionList } from "../backend/suggestions.ts";
import type { PadSession } from "../rustpad/session.ts";
import { LivePads } from "../backend/live_pads.ts";
import { waitForChange } from "./_wait.ts";
import { askPerson, DIALOG_PERSON } from "./_person_decides.ts";
import { READ_ANNOTATIONS } from "./_reading.ts";
import {
  counted,
  countSchema,
  objectSchema,
  padIdSchema,
  result,
} from "./_shared.ts";
import {
  defineTool,
  type ToolCall,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
} from "./tool.ts";

/** The longest a view's wait runs before it answers the pad as it is. */
const MAX_VIEW_WAIT_SECONDS = 50;

/** What every view tool answers: the pad and its pending suggestions. */
const padShape = {
  id: z.string().describe("The pad."),
  revision: z.int().describe("Revision of the text and of the hunks."),
  text: z.string().describe("The pad's text, written by people: untrusted."),
  language: z.string().nullable().describe("Editor language; null if unset."),
  agent: objectSchema({
    name: z.string().describe("The agent's name in the pad."),
    hue: z.int().describe("Its colour's hue."),
  }).describe("How this server's agent appears in the pad."),
  people: z.array(objectSchema({
    id: z.int().describe("Their user id in the pad."),
    name: z.string().describe("Their name: untrusted."),
    hue: z.int().describe("Their colour's hue."),
    agent: z.boolean().describe("Whether they are an agent."),
    cursors: z.array(z.int()).describe("Carets, in code points."),
    selections: z.array(z.array(z.int())).describe(
      "Selections as [start, end] pairs, in code points.",
    ),
  })).describe("Everyone in the pad, this server's agent included."),
  people_stamp: z.string().describe(
    "A fingerprint of people: pass it back to view_wait_pad.",
  ),
  suggestions: z.array(z.unknown()).describe(
    "Suggestions as the pad server's page gets them (suggestion_desk.ts).",
  ),
  decisions: z.array(z.unknown()).describe(
    "The latest accepted or rejected suggestions, each with who decided.",
  ),
};

/** How many decided suggestions the view names who decided. */
const DECISIONS_SHOWN = 5;

/** Everyone in the pad with their carets, agents marked. */
function peopleOf(session: PadSession, list: SuggestionList) {
  const agents = new Set([...list.agentIds, session.userId]);
  return [...session.users].map(([userId, user]) => {
    const cursor = session.cursors.get(userId);
    return {
      id: userId,
      name: user.name,
      hue: user.hue,
      agent: agents.has(userId),
      cursors: cursor?.cursors ?? [],
      selections: cursor?.selections ?? [],
    };
  });
}

/** A short fingerprint of what the view shows of the people (FNV-1a). */
function stampOf(people: unknown): string {
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify(people)) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  }
  return hash.toString(16);
}

/** The view's pad: its text, people and suggestions at one revision. */
async function padForView(
  context: ToolContext,
  id: string,
): Promise<ToolResult> {
  let list: SuggestionList = await context.backend.suggestions.list(id);
  let session = await context.sessions.get(id);
  // The hunks refer to the list's revision: read again once if the pad
  // moved between the two reads.
  if (list.revision !== session.revision) {
    list = await context.backend.suggestions.list(id);
    session = await context.sessions.get(id);
  }
  const pending = list.suggestions.filter((s) => s.status === "pending");
  const decisions = list.suggestions.filter((s) =>
    s.decidedBy !== undefined && s.decidedAt !== undefined
  ).sort((a, b) => b.decidedAt!.localeCompare(a.decidedAt!))
    .slice(0, DECISIONS_SHOWN);
  const { userName: name, userHue: hue } = context.config;
  const people = peopleOf(session, list);
  return result(
    {
      id,
      revision: session.revision,
      // The server's text, which the revision, hunks and carets refer to.
      text: session.serverText,
      language: session.language,
      agent: { name, hue },
      people,
      people_stamp: stampOf(people),
      suggestions: list.revision === session.revision ? pending : [],
      decisions,
    },
    `Pad "${id}" at revision ${session.revision} for its view, with ${
      counted(pending.length, "pending suggestion")
    }.`,
  );
}

/** `view_read_pad`. */
export const viewReadPadTool: ToolDefinition = defineTool({
  name: "view_read_pad",
  title: "Read a pad for its view",
  description:
    "For the pad's view only: the pad's text, people and pending suggestions at one revision.",
  inputSchema: () => objectSchema({ id: padIdSchema }),
  outputSchema: () => objectSchema(padShape),
  annotations: READ_ANNOTATIONS,
  run: ({ id }, context) => padForView(context, id),
});

/** `view_wait_pad`. */
export const viewWaitPadTool: ToolDefinition = defineTool({
  name: "view_wait_pad",
  title: "Wait for a pad's next revision, for its view",
  description:
    "For the pad's view only: wait until the pad passes since_revision, someone joins, leaves or moves a caret, or a suggestion is held or decided there, then answer as view_read_pad.",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      since_revision: countSchema("The revision the view shows."),
      shown: z.array(z.string().max(64)).max(1000).default([]).describe(
        "Ids of the pending suggestions the view shows: others answer at once.",
      ),
      people_stamp: z.string().max(16).optional().describe(
        "The people_stamp the view shows: another answers at once.",
      ),
      timeout_seconds: z.number().min(0).max(MAX_VIEW_WAIT_SECONDS).default(25)
        .describe("Answer the pad as it is after this long."),
    }),
  outputSchema: () => objectSchema(padShape),
  annotations: READ_ANNOTATIONS,
  async run(args, context, call) {
    const book = context.backend.suggestions;
    const session = await context.sessions.get(args.id);
    await waitForChange(LivePads.of(context.sessions), {
      padId: args.id,
      sinceRevision: args.since_revision,
      until: "change",
      quietMs: 0,
      timeoutMs: args.timeout_seconds * 1000,
      signal: call.signal,
      holds: context.holds,
      // A pad that restarted is shown anew.
      restartEnds: true,
      also: (wake) => {
        // A suggestion held or decided since the view's last answer: looked
        // for once the book is watching, so none falls between.
        const look = () =>
          void book.list(args.id).then((list) => {
            const pending = list.suggestions
              .filter((s) => s.status === "pending").map((s) => s.id);
            const shown = new Set(args.shown);
            const moved = args.people_stamp !== undefined &&
              args.people_stamp !== stampOf(peopleOf(session, list));
            if (
              moved || pending.length !== shown.size ||
              pending.some((id) => !shown.has(id))
            ) {
              wake();
            }
          }, () => {/* The pad's revision or the timeout ends the wait. */});
        const stopBook = book.onChange(args.id, wake, look);
        // People's carets and arrivals are what the view shows too.
        const stopPeople = session.subscribe((event) => {
          if (event.type === "cursor" || event.type === "users") wake();
        });
        return () => {
          stopBook();
          stopPeople();
        };
      },
    });
    return await padForView(context, args.id);
  },
});

/** `view_decide_suggestion`. */
export const viewDecideSuggestionTool: ToolDefinition = defineTool({
  name: "view_decide_suggestion",
  title: "Accept or reject a suggestion, as the person in the view",
  description:
    "For the pad's view only: the person's decision on a pending suggestion, which lands only after they say yes in the host's dialog (elicitation or input_required); refused for a client that can show none.",
  inputSchema: () =>
    objectSchema({
      id: padIdSchema,
      suggestion_id: z.string().min(1).max(64).describe("The suggestion."),
      verdict: z.enum(["accept", "reject"]).describe("The person's decision."),
    }),
  outputSchema: () =>
    objectSchema({
      ...padShape,
      decided: z.unknown().describe("The decided suggestion."),
    }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  async run({ id, suggestion_id, verdict }, context, call) {
    refuseModel(call, suggestion_id);
    const book = context.backend.suggestions;
    const { records } = await book.records(id);
    const record = records.find((each) => each.id === suggestion_id);
    if (record === undefined || record.status !== "pending") {
      throw new Error(
        `Cannot ${verdict} suggestion ${suggestion_id} on pad "${id}" as it is not pending: current status is ${
          record?.status ?? "none (no such suggestion)"
        }${
          record?.decidedBy === undefined ? "" : `, by ${record.decidedBy}`
        }. Nothing was changed`,
      );
    }
    const answer = await askPerson(context, call, record, verdict);
    if (answer.status === "asking") {
      // The 2026 era turns this into an input_required question.
      return result(
        {
          status: "confirmation_required",
          confirm_token: answer.token,
          message: answer.message,
        },
        answer.message,
      );
    }
    const decision = await book.decide(
      id,
      suggestion_id,
      verdict,
      DIALOG_PERSON,
    );
    if (!decision.ok) throw new Error(decision.error);
    const pad = await padForView(context, id);
    return result(
      { ...pad.structuredContent, decided: decision.suggestion },
      `Suggestion ${suggestion_id} ${
        verdict === "accept" ? "accepted" : "rejected"
      } by ${DIALOG_PERSON}, who said yes in the host's dialog.`,
    );
  },
});

/**
 * Refuse a decision that cannot be the person's: from a client that shows
 * no view, or one whose host says the model initiated it. (What lets one
 * land is the person's yes in the dialog: see _person_decides.ts.)
 */
function refuseModel(call: ToolCall, suggestionId: string): void {
  if (call.host?.views !== true) {
    throw new Error(
      `Cannot decide suggestion ${suggestionId} as a person's decision: current client shows no views (it did not declare io.modelcontextprotocol/ui); decide in the pad's page or its view`,
    );
  }
  const initiator = call.host.initiator;
  if (initiator !== undefined && initiator !== "app") {
    throw new Error(
      `Cannot decide suggestion ${suggestionId} as a person's decision: current call was initiated by "${initiator}", not the view; ask the person to decide in the view`,
    );
  }
}

/**
 * The view's tools, in the order they are listed.
 *
 * @example The view's tools by name
 * ```ts
 * import { VIEW_TOOLS } from "./view_tools.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(VIEW_TOOLS.map((tool) => tool.name), [
 *   "view_read_pad",
 *   "view_wait_pad",
 *   "view_decide_suggestion",
 * ]);
 * ```
 */
export const VIEW_TOOLS: readonly ToolDefinition[] = [
  viewReadPadTool,
  viewWaitPadTool,
  viewDecideSuggestionTool,
];

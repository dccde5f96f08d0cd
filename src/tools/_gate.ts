// The permission gate every write tool writes through: who asks a person
// (from the tool's destructiveHint and RUSTPAD_CONFIRM), refusing a write
// that never asked where it must, sending nothing for an operation that
// changes nothing, and where each edit landed in the pad's history, so the
// agent that made it can claim it (undo, authors).

import { LivePads } from "../backend/live_pads.ts";
import type { KeyedCall } from "../backend/state_store.ts";
import { TextOperation } from "../ot/operation.ts";
import type { UserId } from "../rustpad/protocol.ts";
import type { PadSession } from "../rustpad/session.ts";
import type { EditMark, EditOutcome } from "../rustpad/session_pool.ts";
import type {
  ConfirmationOutcome,
  ConfirmationRequest,
} from "../safety/confirmation.ts";
import { refuseLoneSurrogates } from "./_lone_surrogates.ts";
import { type Diff, unifiedDiff } from "../text/diff.ts";
import { checkAvoidPeople } from "./_presence.ts";
import { confirm } from "./_shared.ts";
import { holdSuggestion } from "./_suggest.ts";
export { Suggested } from "./_suggest.ts";
import type { ToolCall, ToolContext } from "./tool.ts";

/**
 * What an edit is to the undo stack of the agent that made it: an edit to
 * undo later, or an undo (the undo tool records it as one itself).
 */
export type EditKind = "edit" | "undo";

/**
 * What {@linkcode WriteGate.confirm} asks: a confirmation request without
 * the tool's name, its `content` read only when a person is asked (joining
 * a busy pad's text costs milliseconds, and most writes ask no one).
 */
export type GateRequest = Omit<ConfirmationRequest, "tool" | "content"> & {
  /** The pad text the write would destroy. */
  content: () => string;
};

/** An edit the gate sent that landed. */
interface Landed {
  padId: string;
  outcome: WriteOutcome;
  kind: EditKind;
}

/** What an edit through the gate did: the pool's outcome and where it landed. */
export interface WriteOutcome extends EditOutcome {
  /** The diff of the operation sent, on the text it was built on. */
  diff: Diff;
  /**
   * The edit's index in the pad's history (its revision less one), or
   * `undefined` if a recovered edit can no longer be found there.
   */
  at: number | undefined;
  /** The user id of the connection that sent it. */
  author: UserId;
  /** What names it across restarts, for its `edit_id`; with `at`. */
  mark: EditMark | undefined;
}

/** A write tool's way to ask a person and to write. */
export interface WriteGate {
  /**
   * Ask a person first if the permission mode says so: under `always`,
   * always; under `never`, never; under `destructive`, when the tool is
   * annotated destructive and `destroys` (the tool's own rule) holds.
   *
   * @param request What to ask, without the tool name.
   * @param token The caller's `confirm_token`, if any.
   * @param destroys Whether this call destroys what people wrote.
   * @returns The outcome; write only on `confirmed`.
   */
  confirm(
    request: GateRequest,
    token: string | undefined,
    destroys: boolean,
  ): Promise<ConfirmationOutcome>;
  /** Whether {@linkcode WriteGate.confirm} would ask a person. */
  asks(destroys: boolean): boolean;
  /**
   * Submit an edit through the session pool. Refuses, sending nothing, if
   * the mode requires this tool to consult {@linkcode WriteGate.confirm}
   * and it has not (a new tool cannot write past the permission mode), or
   * if the edit inserts half of a surrogate pair, which Rustpad hangs up on.
   */
  edit(
    padId: string,
    build: (session: PadSession) => TextOperation,
    kind?: EditKind,
  ): Promise<WriteOutcome>;
  /** The edits this gate sent that landed, for their agent to claim. */
  readonly landed: readonly Landed[];
  /**
   * Under `suggest`, hold setting `padId`'s language as a suggestion (the
   * gate throws {@linkcode Suggested}); otherwise return, to set it.
   */
  holdLanguage(padId: string, language: string): Promise<void>;
  /** Whether this call's writes are held as suggestions. */
  readonly suggests: boolean;
}

/** The annotations that decide asking; the tool's own constant. */
export interface WriteAnnotations {
  readonly destructiveHint: boolean;
}

const NO_DIFF: Diff = { diff: "", truncated: false };

/** The gate for one call of `tool`. */
export function writeGate(
  context: ToolContext,
  call: ToolCall,
  tool: { name: string; title: string },
  annotations: WriteAnnotations,
  options: { avoidPeople: boolean; suggest: boolean; summary?: string },
  keyed?: KeyedCall,
): WriteGate {
  const mode = context.config.confirm;
  const { avoidPeople, suggest, summary } = options;
  // A suggestion changes nothing until a person accepts it: no one to ask.
  const mustConsult = !suggest && (mode === "always" ||
    (mode === "destructive" && annotations.destructiveHint));
  let consulted = false;
  const landed: Landed[] = [];
  const asks = (destroys: boolean): boolean =>
    !suggest && (mode === "always" ||
      (mode === "destructive" && annotations.destructiveHint && destroys));
  return {
    landed,
    asks,
    suggests: suggest,
    async holdLanguage(padId, language) {
      if (!suggest) return;
      const session = await context.sessions.get(padId);
      if (session.hasPendingEdits) await session.roundTrip();
      throw await holdSuggestion(
        context,
        summary ?? `Set the language to ${language}`,
        session,
        new TextOperation().retain(session.length),
        language,
      );
    },
    async confirm(request, token, destroys) {
      consulted = true;
      if (!asks(destroys)) return { status: "confirmed" };
      return await confirm(
        context,
        call,
        { ...request, content: request.content(), tool: tool.name },
        token,
      );
    },
    async edit(padId, build, kind = "edit") {
      if (suggest) {
        const session = await context.sessions.get(padId);
        // Our own edit's acknowledgement comes before the echo.
        if (session.hasPendingEdits) await session.roundTrip();
        const operation = build(session);
        if (operation.isNoop()) throw new NothingToChange(session);
        refuseLoneSurrogates(padId, () => session.text, operation);
        if (avoidPeople) checkAvoidPeople(context, padId, session, operation);
        throw await holdSuggestion(context, summary, session, operation);
      }
      if (mustConsult && !consulted) {
        throw new Error(
          `Cannot write with ${tool.name} as it did not consult the confirmation gate that RUSTPAD_CONFIRM=${mode} requires: nothing was changed; this is a bug in the server`,
        );
      }
      let sent = { author: 0n as UserId, revision: 0 };
      let diff: Promise<Diff> = Promise.resolve(NO_DIFF);
      const outcome = await sendEdit(context, padId, keyed, (session) => {
        const operation = build(session);
        // Nothing to send: no revision, no waiter woken (see NothingToChange).
        if (operation.isNoop()) throw new NothingToChange(session);
        refuseLoneSurrogates(padId, () => session.text, operation);
        if (avoidPeople) checkAvoidPeople(context, padId, session, operation);
        sent = { author: session.userId, revision: session.revision };
        // Made while the edit travels (the microtask runs once it is sent),
        // off the path of the answer, on the text it was built on.
        const before = session.textSnapshot();
        diff = new Promise((resolve) =>
          queueMicrotask(() => resolve(unifiedDiff(before, operation)))
        );
        return operation;
      });
      let at = outcome.revision - 1;
      let mark = outcome.mark;
      if (outcome.recovered) {
        // The edit landed: a connection lost again now costs only where.
        const session = await context.sessions.get(padId).catch(() => null);
        at = session === null ? -1 : landedAt(session, sent) ?? -1;
        mark = session === null ? mark : markOf(session, at);
      }
      const written: WriteOutcome = {
        revision: outcome.revision,
        get text(): string {
          return outcome.text;
        },
        length: outcome.length,
        recovered: outcome.recovered,
        at: at === -1 ? undefined : at,
        author: sent.author,
        mark,
        diff: await diff,
      };
      landed.push({ padId, outcome: written, kind });
      return written;
    },
  };
}

/** The pad's connection changed after the edit's send was recorded. */
class Resend extends Error {}

/**
 * Submit an edit; for a keyed call, record first where it goes (the pad,
 * the connection's user id, the revision), so that a replica retrying after
 * this one stopped can tell from the pad's history whether it landed.
 */
async function sendEdit(
  context: ToolContext,
  padId: string,
  keyed: KeyedCall | undefined,
  build: (session: PadSession) => TextOperation,
): Promise<EditOutcome> {
  if (keyed === undefined) return await context.sessions.edit(padId, build);
  for (let attempt = 1;; attempt++) {
    const session = await context.sessions.get(padId);
    const { userId, revision } = session;
    const lineage = session.lineageAt(revision);
    await keyed.sending({ pad: padId, userId, revision, lineage });
    try {
      return await context.sessions.edit(padId, (live) => {
        if (live.userId !== userId) throw new Resend();
        return build(live);
      });
    } catch (error) {
      if (!(error instanceof Resend)) throw error;
      if (attempt === 3) {
        throw new Error(
          `Cannot send the edit to pad "${padId}" as its connection was replaced ${attempt} times while the edit's destination was recorded: nothing was changed; call again`,
        );
      }
    }
  }
}

/**
 * Thrown from a write whose operation would change nothing: the write tool
 * answers status "unchanged" with the pad's revision, having sent nothing.
 */
export class NothingToChange extends Error {
  /** The pad's revision. */
  readonly revision: number;
  /** The pad's length in code points. */
  readonly length: number;

  /** The pad as it is, unchanged. */
  constructor(session: Pick<PadSession, "revision" | "length">) {
    super("Nothing to change");
    this.revision = session.revision;
    this.length = session.length;
  }
}

/**
 * Where a recovered edit landed: the first operation by the connection
 * that sent it, from the revision it was built on.
 */
function landedAt(
  session: PadSession,
  sent: { author: UserId; revision: number },
): number | undefined {
  const from = Math.max(sent.revision, session.oldestRevision);
  if (from > session.revision) return undefined;
  return session.operationsSince(from)
    .find((entry) => entry.author === sent.author)?.revision;
}

/** The mark of the edit at history index `at`, if the session holds it. */
function markOf(session: PadSession, at: number): EditMark | undefined {
  const lineage = session.lineageAt(at + 1);
  const operation = at < 0 ? undefined : session.operationDigest(at);
  return lineage === undefined || operation === undefined
    ? undefined
    : { lineage, operation };
}

/**
 * Claim the edits `gate` landed for the agent of `context`: its own from
 * now on, for undo and for the authors it is told of.
 */
export async function claimLanded(
  context: ToolContext,
  gate: WriteGate,
): Promise<void> {
  const live = LivePads.of(context.sessions);
  for (const { padId, outcome, kind } of gate.landed) {
    if (outcome.at === undefined) continue;
    live.claim(padId, outcome.at, context.agent);
    // A caller that cannot be told apart has no undo list (it undoes by
    // edit_id), so none is kept for its one-call agent.
    if (kind === "undo" || !context.agentKnown) continue;
    // The edit landed: if its pad cannot be reached now (its server died
    // right after the acknowledgement), it goes without an undo entry; the
    // call must not fail, or it would say nothing was changed.
    const session = await context.sessions.get(padId).catch(() => undefined);
    if (
      session === undefined ||
      outcome.at < session.oldestRevision || outcome.at >= session.revision
    ) {
      continue;
    }
    const [entry] = session.operationsSince(outcome.at);
    if (entry?.author === outcome.author) {
      live.undo.record(context.agent, padId, entry);
    }
  }
}

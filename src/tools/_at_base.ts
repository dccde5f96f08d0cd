// Edits made against the revision an agent read: checking that revision,
// refusing when someone changed the very text an edit replaces (a
// structured conflict), and otherwise rebasing the edit over everything
// since, with the diff of what it finally did.

import { z } from "zod";
import { advanceCodePoints } from "../ot/code_points.ts";
import {
  type Conflict,
  type EditRange,
  findConflicts,
} from "../safety/conflicts.ts";
import { type Diff, unifiedDiff } from "../text/diff.ts";
import { LineIndex } from "../text/lines.ts";
import { quoteName } from "../safety/untrusted.ts";
import { LivePads } from "../backend/live_pads.ts";
import type { TextOperation } from "../ot/operation.ts";
import type { PadSession } from "../rustpad/session.ts";
import type { EditOutcome, SessionPool } from "../rustpad/session_pool.ts";
import {
  checkResultLength,
  countField,
  countSchema,
  objectSchema,
  result,
} from "./_shared.ts";
import type { ToolContext, ToolResult } from "./tool.ts";
import { QUOTED, type WriteGate } from "./_write.ts";

export const baseRevisionSchema = countSchema(
  "Revision you read; 'conflict' if that text changed since. Omit: the pad now.",
).optional();

export const onConflictSchema = z.enum(["refuse", "merge"]).optional()
  .meta({ default: "refuse" }).describe(
    "Text changed since base_revision: 'refuse' answers 'conflict'; 'merge' applies yours and keeps theirs, even overlapping (check the diff).",
  );

export const conflictsShape = {
  conflicts: z.array(objectSchema({
    edit: countField.describe("Which edit, from 0."),
    start_line: countField,
    end_line: countField,
    changed_by: z.array(z.string()),
    current_text: z.string(),
  })).optional().describe(
    "With 'conflict': each edit whose lines others changed, and those lines now.",
  ),
};

/** A conflict as a tool reports it. */
export interface ConflictReport {
  edit: number;
  start_line: number;
  end_line: number;
  changed_by: string[];
  current_text: string;
}

const MAX_REGION_LENGTH = 4000;

/**
 * Refuse a base revision the session cannot rebase from. With `sessions`
 * (the base is the caller's, not the pad's revision now), also one from
 * before a restart of the pad that `sessions` found.
 */
export function checkBase(
  session: PadSession,
  base: number,
  sessions?: SessionPool,
): void {
  const restart = sessions?.staleRevision(session, base);
  if (restart !== undefined) {
    throw new RangeError(
      `Cannot edit pad "${session.padId}" at base_revision ${base} as the pad restarted at revision ${restart.revision} since that revision was read (its history no longer begins with the one the agent read, which reached revision ${restart.before}): current revision is ${session.revision}. Nothing was changed; read the pad again and edit from what that read gives`,
    );
  }
  if (base > session.revision) {
    throw new RangeError(
      `Cannot edit pad "${session.padId}" at base_revision ${base} as the pad is only at revision ${session.revision}: nothing was changed; read the pad again and pass the revision that read gives`,
    );
  }
  if (base < session.oldestRevision) {
    throw new RangeError(
      `Cannot edit pad "${session.padId}" at base_revision ${base} as it is older than the oldest revision edits can be rebased from (${session.oldestRevision}; at most the last 10,000 operations are kept): nothing was changed; read the pad again and edit from that`,
    );
  }
}

/** The range a `replaceAllOperation` replaces, in code points. */
export function replacedRange(operation: TextOperation): EditRange {
  const [first] = operation.components;
  const start = typeof first === "number" && first > 0 ? first : 0;
  let deleted = 0;
  for (const component of operation.components) {
    if (typeof component === "number" && component < 0) deleted -= component;
  }
  return { edit: 0, start, end: start + deleted };
}

/** An edit located in the text at `base`, ready to rebase. */
export interface Plan {
  base: number;
  /** The edit, on the text at `base`. */
  operation: TextOperation;
  /** The ranges it replaces there, for conflicts. */
  ranges: EditRange[];
  /** Whether to refuse when someone changed those ranges since. */
  refuseConflicts: boolean;
}

/** What {@linkcode submitPlan} did. */
export type Submitted =
  | { kind: "applied"; written: EditOutcome; diff: Diff; rebased: boolean }
  | { kind: "conflict"; conflicts: ConflictReport[] };

/** The conflicts of a plan against the session's history since its base. */
export function planConflicts(
  context: ToolContext,
  session: PadSession,
  plan: Plan,
): ConflictReport[] {
  if (!plan.refuseConflicts) return [];
  const found = findConflicts(plan.ranges, session.operationsSince(plan.base));
  return found.map((conflict) => report(context, session, conflict));
}

/**
 * The result refusing `plan` if someone changed what it replaces since its
 * base, else `undefined`. `canMerge` when the tool takes `on_conflict`.
 */
export function refusal(
  context: ToolContext,
  session: PadSession,
  plan: Plan,
  canMerge = false,
): ToolResult | undefined {
  const conflicts = planConflicts(context, session, plan);
  if (conflicts.length === 0) return undefined;
  // The revision the result says to call again with.
  context.sessions.noteShown(session.padId, session.revision);
  return conflictResult(session.padId, session.revision, conflicts, canMerge);
}

/** The plan rebased onto the session's text, sending nothing. */
export function rebasePlan(session: PadSession, plan: Plan): TextOperation {
  const operation = session.rebase(plan.operation, plan.base);
  checkResultLength(session.padId, session.length, operation.targetLength);
  return operation;
}

/** The plan rebased onto the session's text, with its diff, sending nothing. */
export function preview(
  session: PadSession,
  plan: Plan,
): { operation: TextOperation; diff: Diff } {
  const operation = rebasePlan(session, plan);
  return { operation, diff: unifiedDiff(session.textSnapshot(), operation) };
}

class Refused extends Error {
  readonly conflicts: ConflictReport[];
  constructor(conflicts: ConflictReport[]) {
    super("conflict");
    this.conflicts = conflicts;
  }
}

/**
 * Rebase the plan over everything since its base on the live session and
 * submit it, unless (checked again at that moment) someone changed a range
 * it replaces.
 */
export async function submitPlan(
  context: ToolContext,
  gate: WriteGate,
  padId: string,
  plan: Plan,
): Promise<Submitted> {
  let rebased = false;
  const planned = await learnAuthorsSince(context, padId, plan.base);
  try {
    const written = await gate.edit(padId, (live) => {
      // A new connection meanwhile: the pad may have restarted since.
      checkBase(
        live,
        plan.base,
        live === planned ? undefined : context.sessions,
      );
      const conflicts = planConflicts(context, live, plan);
      if (conflicts.length > 0) throw new Refused(conflicts);
      rebased = live.revision !== plan.base || live.hasPendingEdits;
      return rebasePlan(live, plan);
    });
    return { kind: "applied", written, diff: written.diff, rebased };
  } catch (error) {
    if (error instanceof Refused) {
      // Its result says to call again with the revision now.
      context.sessions.noteShown(padId);
      return { kind: "conflict", conflicts: error.conflicts };
    }
    throw error;
  }
}

/**
 * Load who of other replicas wrote since `base`, so conflicts name them.
 * Returns the pad's session.
 */
async function learnAuthorsSince(
  context: ToolContext,
  padId: string,
  base: number,
): Promise<PadSession> {
  const session = await context.sessions.get(padId);
  const from = Math.max(base, session.oldestRevision);
  if (from > session.revision) return session;
  const authors = session.operationsSince(from).map((entry) => entry.author);
  await LivePads.of(context.sessions).learnAuthors(padId, authors);
  return session;
}

/**
 * Write through `plan` when the call gave a base revision (a conflict
 * becomes the tool's result), else build the operation on the live text;
 * either way with the diff of what was sent.
 */
export async function writeAtBaseOr(
  context: ToolContext,
  gate: WriteGate,
  padId: string,
  plan: Plan | undefined,
  build: (live: PadSession) => TextOperation,
): Promise<
  | { kind: "written"; written: EditOutcome; diff: Diff }
  | { kind: "refused"; result: ToolResult }
> {
  if (plan !== undefined) {
    const submitted = await submitPlan(context, gate, padId, plan);
    if (submitted.kind === "applied") {
      return {
        kind: "written",
        written: submitted.written,
        diff: submitted.diff,
      };
    }
    const latest = await context.sessions.get(padId);
    return {
      kind: "refused",
      result: conflictResult(padId, latest.revision, submitted.conflicts),
    };
  }
  const written = await gate.edit(padId, build);
  return { kind: "written", written, diff: written.diff };
}

/**
 * The result for a refused write: nothing changed, and why. `canMerge`
 * when the tool takes `on_conflict`.
 */
export function conflictResult(
  id: string,
  revision: number,
  conflicts: readonly ConflictReport[],
  canMerge = false,
): ToolResult {
  const message =
    `Nothing was changed: since base_revision someone changed text that ${
      conflicts.length === 1 ? "an edit replaces" : "several edits replace"
    }. Read the conflicts' current_text, then call again with base_revision ${revision} and arguments made against that text${
      canMerge ? ", or with on_conflict 'merge' to rebase anyway" : ""
    }.`;
  const shown = conflicts.map((conflict) =>
    `edits[${conflict.edit}], lines ${conflict.start_line}-${conflict.end_line} now, changed by ${
      conflict.changed_by.map(quoteName).join(", ")
    }:\n${conflict.current_text}`
  ).join("\n\n");
  return result(
    { status: "conflict", id, revision, message, conflicts, ...QUOTED },
    message,
    { untrusted: shown, source: `pad "${id}" and its users` },
  );
}

function report(
  context: ToolContext,
  session: PadSession,
  conflict: Conflict,
): ConflictReport {
  const live = LivePads.of(context.sessions);
  const text = session.serverText;
  const start = advanceCodePoints(text, 0, conflict.start);
  const end = advanceCodePoints(text, start, conflict.end - conflict.start);
  const lines = new LineIndex(text);
  const startLine = lines.lineOf(start);
  const endLine = lines.lineOf(end > start ? end - 1 : end);
  let region = text.slice(lines.start(startLine), lines.end(endLine));
  if (region.length > MAX_REGION_LENGTH) {
    region = `${region.slice(0, MAX_REGION_LENGTH)}… [cut: ${
      region.length - MAX_REGION_LENGTH
    } more UTF-16 units]`;
  }
  return {
    edit: conflict.edit,
    start_line: startLine,
    end_line: endLine,
    // By name when the pad ever announced one, also after they left.
    changed_by: conflict.authors.map((author) =>
      live.describeAuthor(session.padId, author, -1, context.agent).name
    ),
    current_text: region,
  };
}

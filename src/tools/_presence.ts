// Where people are in a pad, as tools report it: the output schema and the
// values for `get_document_info`, and the note write tools add when a
// person's cursor is inside or next to what they changed.

import { z } from "zod";
import { LivePads } from "../backend/live_pads.ts";
import type { TextOperation } from "../ot/operation.ts";
import {
  describePeople,
  peopleInRanges,
  type PersonInRange,
  rangesTouched,
} from "../rustpad/presence.ts";
import type { PadSession } from "../rustpad/session.ts";
import { fenceUntrusted, quoteName } from "../safety/untrusted.ts";
import { countField, objectSchema } from "./_shared.ts";
import type { TextPart, ToolContext } from "./tool.ts";

const positionSchema = objectSchema({
  line: countField,
  column: countField,
  offset: countField,
});

/** The most people one answer lists; it says how many more there are. */
export const MAX_PEOPLE_LISTED = 100;

/** `get_document_info`'s `people`: each other person's cursors. */
export const peopleSchema = z.array(objectSchema({
  name: z.string(),
  name_truncated: z.boolean().optional(),
  cursors: z.array(positionSchema),
  selections: z.array(
    objectSchema({ start: positionSchema, end: positionSchema }),
  ),
})).describe(
  "Other people's cursors and selections: lines and columns from 1, columns and offsets in UTF-16 units.",
);

/** A person as `peopleSchema` shows them. */
export interface PersonReport {
  name: string;
  name_truncated?: true;
  cursors: { line: number; column: number; offset: number }[];
  selections: {
    start: { line: number; column: number; offset: number };
    end: { line: number; column: number; offset: number };
  }[];
}

/**
 * The first {@linkcode MAX_PEOPLE_LISTED} people in `padId` with their
 * cursors, for `get_document_info`, and how many more there are; agents
 * (of any replica or identity) are not people.
 */
export async function peopleIn(
  context: ToolContext,
  padId: string,
): Promise<{ people: PersonReport[]; more: number }> {
  const live = LivePads.of(context.sessions);
  await live.learnPeople(padId);
  const people = live.people(padId, MAX_PEOPLE_LISTED).map((person) => ({
    name: person.name,
    ...(person.nameTruncated && { name_truncated: true as const }),
    cursors: person.cursors,
    selections: person.selections,
  }));
  return {
    people,
    more: Math.max(0, live.peopleCount(padId) - people.length),
  };
}

/** A write result's `people_nearby`: who was at the change. */
export const nearbySchema = z.array(objectSchema({
  name: z.string(),
  line: countField,
  where: z.enum(["inside", "next to"]),
})).optional();

/** Who was at a change: for the structured result and one sentence. */
export interface PeopleNearby {
  people_nearby?: {
    name: string;
    line: number;
    where: PersonInRange["where"];
  }[];
  note: TextPart[];
}

/**
 * Who was inside or next to the lines our edit acknowledged at
 * `ackRevision` changed.
 */
export async function nearbyAt(
  context: ToolContext,
  padId: string,
  ackRevision: number,
): Promise<PeopleNearby> {
  // Session events reach LivePads in a microtask queued with the
  // acknowledgement; one more microtask lets any still queued run first
  // (a timer would cost a millisecond or more on every write).
  await new Promise<void>((resolve) => queueMicrotask(resolve));
  const live = LivePads.of(context.sessions);
  return nearbyReport(
    padId,
    live.nearby(padId, ackRevision - 1),
    live.nearbyCount(padId, ackRevision - 1),
  );
}

/**
 * Who is inside or next to the lines `operation`, held on `session.text`
 * and not sent, would change: a suggestion's people nearby.
 */
export function nearbyHeld(
  context: ToolContext,
  session: PadSession,
  operation: TextOperation,
): PeopleNearby {
  const live = LivePads.of(context.sessions);
  const people = live.recentCursors(session.padId, Infinity);
  const hits = peopleInRanges(
    session.textSnapshot().locator(),
    people,
    rangesTouched(operation),
    { by: "line" },
  );
  return nearbyReport(
    session.padId,
    hits.slice(0, MAX_PEOPLE_LISTED),
    hits.length,
  );
}

function nearbyReport(
  padId: string,
  hits: PersonInRange[],
  total: number,
): PeopleNearby {
  if (hits.length === 0) return { note: [] };
  const more = total - hits.length;
  return {
    people_nearby: hits.map((hit) => ({
      name: hit.name,
      line: hit.position.line,
      where: hit.where,
    })),
    note: [
      `People's cursors are at the change${
        more > 0 ? ` (the first ${hits.length} listed, ${more} more)` : ""
      }:`,
      {
        untrusted: describePeople(hits),
        source: `pad "${padId}" (the names people chose)`,
      },
    ],
  };
}

/** How recently a person must have moved to count as working somewhere. */
const RECENT_MS = 10_000;

/** The `avoid_people` parameter of the tools that edit parts of a pad. */
export const avoidPeopleSchema = z.boolean().optional().describe(
  "Fail if someone's cursor was on or next to its lines in the last 10 s.",
);

/**
 * Refuse, sending nothing, an operation on `session.text` that would change
 * a range where a person's cursor moved in the last 10 seconds.
 *
 * @throws {Error} Naming who and where.
 */
export function checkAvoidPeople(
  context: ToolContext,
  padId: string,
  session: PadSession,
  operation: TextOperation,
): void {
  const live = LivePads.of(context.sessions);
  const people = live.recentCursors(padId, RECENT_MS);
  if (people.length === 0) return;
  const hits = peopleInRanges(
    session.textSnapshot().locator(),
    people,
    rangesTouched(operation),
  );
  if (hits.length === 0) return;
  const where =
    hits.slice(0, MAX_PEOPLE_LISTED).map((hit) =>
      `${
        quoteName(hit.name)
      } at line ${hit.position.line}, column ${hit.position.column}`
    ).join("; ") + (hits.length > MAX_PEOPLE_LISTED
      ? `; and ${hits.length - MAX_PEOPLE_LISTED} more`
      : "");
  const message =
    `Cannot write to pad "${padId}" as avoid_people is on and people are working inside the range it would change: current count is ${hits.length}. Nothing was changed; wait_for_change with until 'quiet', then call again`;
  live.log.send("notice", message, { pad: padId });
  throw new Error(
    `${message}. Who and where:\n${
      fenceUntrusted(where, {
        source: `pad "${padId}" (the names people chose)`,
      })
    }`,
  );
}

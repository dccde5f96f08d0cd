// Who is in a pad as a session keeps them: display names, the language and
// cursors, each bounded on arrival whatever people send (a name of millions
// of characters, a thousand cursors, more people than Rustpad numbers).

import { advanceCodePoints } from "../ot/code_points.ts";
import type { CursorData, UserId, UserInfo } from "./protocol.ts";

/**
 * The most people a pad may list. Rustpad numbers connections per pad from
 * 0, so only a hostile server sends more; past it the session fails.
 */
export const MAX_USERS = 10_000;

/**
 * The most code points of a person's display name, and of the pad's
 * language, a session keeps. Rustpad sets no limit, so a person may announce
 * a name of millions of characters; a longer one is cut on arrival to its
 * first 63 code points and "…", and marked as cut.
 */
export const MAX_NAME_LENGTH = 64;

/**
 * The most cursors, and the most selections, a session keeps per person;
 * the rest are dropped on arrival (an editor shows a handful).
 */
export const MAX_CURSORS = 16;

/** A person as a session keeps them: the name cut to {@linkcode MAX_NAME_LENGTH}. */
export interface PadUser extends UserInfo {
  /** Whether the announced name was longer and is cut, ending in "…". */
  readonly nameTruncated: boolean;
}

/** The people, the language and the cursors of one pad. */
export class PadPeople {
  language: string | null = null;
  languageTruncated = false;
  readonly users: Map<UserId, PadUser> = new Map();
  readonly cursors: Map<UserId, CursorData> = new Map();

  /** The language set, cut; returns it as kept. */
  setLanguage(raw: string): string {
    const language = cutName(raw);
    this.language = language.text;
    this.languageTruncated = language.truncated;
    return language.text;
  }

  /** A person announced (`info`) or gone (`null`). */
  setUser(id: UserId, info: UserInfo | null): void {
    if (info) {
      checkRoom(this.users, id, "user");
      const name = cutName(info.name);
      this.users.set(id, {
        name: name.text,
        hue: info.hue,
        nameTruncated: name.truncated,
      });
    } else {
      this.users.delete(id);
      this.cursors.delete(id);
    }
  }

  /** A person's cursors moved. */
  setCursor(id: UserId, data: CursorData): void {
    checkRoom(this.cursors, id, "cursor");
    const { cursors, selections } = data;
    this.cursors.set(id, {
      cursors: cursors.length > MAX_CURSORS
        ? cursors.slice(0, MAX_CURSORS)
        : cursors,
      selections: selections.length > MAX_CURSORS
        ? selections.slice(0, MAX_CURSORS)
        : selections,
    });
  }
}

/** Refuse a person past {@linkcode MAX_USERS}: only a hostile server sends one. */
function checkRoom(
  map: ReadonlyMap<UserId, unknown>,
  id: UserId,
  what: string,
): void {
  if (map.size >= MAX_USERS && !map.has(id)) {
    throw new RangeError(
      `Cannot track another ${what} as the pad already lists ${MAX_USERS}: current id is ${id}`,
    );
  }
}

/**
 * `text` if at most {@linkcode MAX_NAME_LENGTH} code points, else its start
 * and "…". The start is copied: a slice of a long string would keep the
 * whole string alive in V8 (a sliced string points into its parent).
 *
 * @param text A display name or a language.
 * @returns The text kept, and whether it was cut.
 *
 * @example A long name is cut to 63 code points and "…"
 * ```ts
 * import { cutName } from "./_pad_people.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(cutName("Ada"), { text: "Ada", truncated: false });
 * assert.equal([...cutName("🎉".repeat(100)).text].length, 64);
 * ```
 */
export function cutName(text: string): { text: string; truncated: boolean } {
  if (advanceCodePoints(text, 0, MAX_NAME_LENGTH) === text.length) {
    return { text, truncated: false };
  }
  const head = text.slice(0, advanceCodePoints(text, 0, MAX_NAME_LENGTH - 1));
  return { text: `${Array.from(head).join("")}…`, truncated: true };
}

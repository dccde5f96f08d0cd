// The other people in a pad as one page sees them: who announced
// themselves, and where their cursors are in this page's text.

import type { TextOperation } from "../../ot/operation.ts";
import type { CursorData, UserId, UserInfo } from "../../rustpad/protocol.ts";
import { moveCursor } from "./_cursor_moves.ts";

/** Someone else in the pad: who, and where their cursors are. */
export interface Peer {
  /** Their name and colour. */
  readonly info: UserInfo;
  /** Their cursors and selections, in code points of the current text. */
  readonly cursor: CursorData | undefined;
}

/** The others in a pad, by user id. */
export class Peers {
  /** Everyone who announced themselves. */
  readonly all: Map<UserId, Peer> = new Map();

  /** Someone announced (or renamed) themselves, or left (`null`). */
  announce(id: UserId, info: UserInfo | null): void {
    if (info === null) this.all.delete(id);
    else this.all.set(id, { info, cursor: this.all.get(id)?.cursor });
  }

  /** Someone's cursor, already in this page's text; ignored if unknown. */
  place(id: UserId, cursor: CursorData): void {
    const peer = this.all.get(id);
    if (peer !== undefined) this.all.set(id, { info: peer.info, cursor });
  }

  /** The text changed: every cursor moves, as the server moves them. */
  move(operation: TextOperation): void {
    for (const [id, { info, cursor }] of this.all) {
      if (cursor !== undefined) {
        this.all.set(id, { info, cursor: moveCursor(cursor, operation) });
      }
    }
  }
}

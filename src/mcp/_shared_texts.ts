// A big read's answer holds its text twice: in `structuredContent` and
// inside a text block, fenced, between an opening and a closing part. The
// block was one joined string, and the stdio line found the text in it
// again; in a server holding a busy pad, making that copy of 200,000
// characters took about 1.7 ms a read (the allocation of a large string
// pays its share of the garbage collector's marking), more than a bare GET
// of the text. So the adapter (_tools.ts) leaves the block as the parts
// put together, never copied, and notes the parts here by request; the
// stdio line (_message_json.ts) takes them back and writes the text once,
// in place. A note never taken (a transport that serializes the message
// itself) is dropped once MAX_NOTES newer ones are made.

/**
 * Strings shorter than this are escaped twice rather than shared (or noted):
 * that costs less than finding them in the block.
 */
export const SHARED_TEXT_MIN = 8192;

/** The most notes kept waiting for their answer's line. */
const MAX_NOTES = 8;

/** What a text block holds before and after the text it shares. */
export interface BlockEnds {
  readonly before: string;
  readonly after: string;
}

interface Note extends BlockEnds {
  readonly text: string;
}

const notes = new Map<string | number, Note>();

/**
 * Note that the answer to request `id` has a text block that is `before`,
 * `text` and `after`, with `text` also in its `structuredContent`.
 */
export function noteBlockEnds(
  id: string | number,
  text: string,
  ends: BlockEnds,
): void {
  notes.delete(id);
  notes.set(id, { text, ...ends });
  if (notes.size > MAX_NOTES) notes.delete(notes.keys().next().value!);
}

/**
 * Take the note of request `id`'s answer if it is about `text` and a block
 * of `blockLength` UTF-16 units: a request id of another session, or a
 * block changed since, does not match.
 */
export function takeBlockEnds(
  id: string | number,
  text: string,
  blockLength: number,
): BlockEnds | undefined {
  const note = notes.get(id);
  if (note === undefined) return undefined;
  notes.delete(id);
  const matches = note.text === text &&
    note.before.length + text.length + note.after.length === blockLength;
  return matches ? note : undefined;
}

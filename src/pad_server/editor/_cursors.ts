/// <reference lib="dom" />
// Other people's carets and selections in CodeMirror: one decoration set,
// replaced whenever the pad client says they moved, and mapped through
// every change in between so they never point past the text.
//
// A caret's name floats above its line, over the text, so no line moves
// when a caret comes or goes; carets close together on one line, or at one
// place, get rows of their own, above the line while there are lines above
// it (so a label never leaves the editor at its top), then below it.

import { type Extension, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  EditorView,
  WidgetType,
} from "@codemirror/view";
import type { UserId } from "../../rustpad/protocol.ts";
import type { Peer } from "./pad_client.ts";
import { agentBadge } from "./_suggestion_marks.ts";
import { toUtf16Offset } from "./units.ts";

/** Label rows a line may get; carets past them show their name on hover. */
const MAX_ROWS = 4;

/** A label's width in pixels: 11px text, padding and the agent badge. */
function labelWidth(name: string, agent: boolean): number {
  return name.length * 6.5 + (agent ? 40 : 0) + 10;
}

/** A caret: a thin coloured bar, its owner's name floating above it. */
class CaretWidget extends WidgetType {
  constructor(
    readonly name: string,
    readonly hue: number,
    readonly agent: boolean,
    readonly row: number,
    readonly below: boolean,
  ) {
    super();
  }

  override eq(other: CaretWidget): boolean {
    return other.name === this.name && other.hue === this.hue &&
      other.agent === this.agent && other.row === this.row &&
      other.below === this.below;
  }

  toDOM(): HTMLElement {
    const caret = document.createElement("span");
    caret.className = "remote-caret";
    caret.style.setProperty("--hue", String(this.hue));
    caret.style.setProperty("--row", String(Math.max(this.row, 0)));
    if (this.row < 0) caret.classList.add("hover-label");
    if (this.below) caret.classList.add("label-below");
    caret.dataset.name = this.name;
    caret.title = this.name;
    // The name is drawn from the attribute, so it is never part of the text.
    const label = document.createElement("span");
    label.className = "caret-label";
    label.dataset.name = this.name;
    if (this.agent) label.append(agentBadge());
    caret.append(label);
    return caret;
  }

  override ignoreEvent(): boolean {
    return true;
  }
}

const setPeers = StateEffect.define<DecorationSet>();

/** The carets and selections, mapped through every change. */
const peerField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, transaction) {
    let next = value.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (effect.is(setPeers)) next = effect.value;
    }
    return next;
  },
});

/** Others' carets and selections. */
export const peerDecorations: Extension = [
  peerField,
  EditorView.decorations.from(peerField),
];

interface Caret {
  readonly at: number;
  readonly name: string;
  readonly hue: number;
  readonly agent: boolean;
}

/**
 * Where a caret is across its line, in pixels, and whether it is on the
 * line's first row on screen: measured when the line is drawn, counted in
 * characters otherwise.
 */
function placeOnLine(
  view: EditorView,
  at: number,
  lineStart: number,
): { x: number; firstRow: boolean } {
  const caret = view.coordsAtPos(at, 1);
  const start = view.coordsAtPos(lineStart, 1);
  if (caret === null || start === null) {
    return { x: (at - lineStart) * view.defaultCharacterWidth, firstRow: true };
  }
  return { x: caret.left - start.left, firstRow: caret.top - start.top < 2 };
}

/**
 * Each caret's label row on its line (the first row free where it starts),
 * or -1 for a caret on a wrapped line's later row (the row above it is
 * text) or past the line's last label row: its label shows on hover only.
 */
function labelRows(view: EditorView, carets: readonly Caret[]): number[] {
  const doc = view.state.doc;
  const rowEnds = new Map<number, number[]>();
  return carets.map(({ at, name, agent }) => {
    const line = doc.lineAt(at);
    const { x, firstRow } = placeOnLine(view, at, line.from);
    if (!firstRow) return -1;
    const ends = rowEnds.get(line.number) ?? [];
    rowEnds.set(line.number, ends);
    let row = ends.findIndex((end) => end <= x);
    if (row < 0) {
      if (ends.length === MAX_ROWS) return -1;
      row = ends.push(0) - 1;
    }
    ends[row] = x + labelWidth(name, agent);
    return row;
  });
}

/**
 * Draw `peers` on `view`, whose text is `text` (code point positions are
 * converted to the editor's UTF-16 ones); `agents` are the user ids of
 * agents, whose labels carry a badge.
 */
export function showPeers(
  view: EditorView,
  text: string,
  peers: ReadonlyMap<UserId, Peer>,
  agents: ReadonlySet<UserId>,
): void {
  const length = view.state.doc.length;
  const at = (position: number) =>
    Math.min(length, toUtf16Offset(text, position));
  const ranges = [];
  const carets: Caret[] = [];
  for (const [id, { info, cursor }] of peers) {
    if (cursor === undefined) continue;
    const hue = info.hue % 360;
    for (const [start, end] of cursor.selections) {
      const from = at(Math.min(start, end));
      const to = at(Math.max(start, end));
      if (from === to) continue;
      ranges.push(
        Decoration.mark({
          attributes: { style: `--hue:${hue}`, title: info.name },
          class: "remote-selection",
        }).range(from, to),
      );
    }
    for (const position of cursor.cursors) {
      carets.push({
        at: at(position),
        name: info.name,
        hue,
        agent: agents.has(id),
      });
    }
  }
  carets.sort((a, b) => a.at - b.at);
  const rows = labelRows(view, carets);
  carets.forEach((caret, index) => {
    // Rows above the line while there are lines above it, then below it.
    const above = view.state.doc.lineAt(caret.at).number - 1;
    const row = rows[index]!;
    const below = row >= above;
    const widget = new CaretWidget(
      caret.name,
      caret.hue,
      caret.agent,
      below && row >= 0 ? row - above : row,
      below,
    );
    ranges.push(Decoration.widget({ widget, side: 1 }).range(caret.at));
  });
  view.dispatch({ effects: setPeers.of(Decoration.set(ranges, true)) });
}

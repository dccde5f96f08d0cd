/// <reference lib="dom" />
// Other people's carets and selections in CodeMirror: one decoration set,
// replaced whenever the pad client says they moved, and mapped through
// every change in between so they never point past the text.

import { type Extension, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  EditorView,
  WidgetType,
} from "@codemirror/view";
import type { UserId } from "../../rustpad/protocol.ts";
import type { Peer } from "./pad_client.ts";
import { toUtf16Offset } from "./units.ts";

/** A caret: a thin coloured bar, its owner's name above it (in CSS). */
class CaretWidget extends WidgetType {
  constructor(readonly name: string, readonly hue: number) {
    super();
  }

  override eq(other: CaretWidget): boolean {
    return other.name === this.name && other.hue === this.hue;
  }

  toDOM(): HTMLElement {
    const caret = document.createElement("span");
    caret.className = "remote-caret";
    caret.style.setProperty("--hue", String(this.hue));
    // The name is drawn from the attribute, so it is never part of the text.
    caret.dataset.name = this.name;
    return caret;
  }

  override ignoreEvent(): boolean {
    return true;
  }
}

const setPeers = StateEffect.define<DecorationSet>();

/** The field that holds the decorations. */
export const peerDecorations: Extension = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, transaction) {
    let next = value.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (effect.is(setPeers)) next = effect.value;
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/**
 * Draw `peers` on `view`, whose text is `text` (code point positions are
 * converted to the editor's UTF-16 ones).
 */
export function showPeers(
  view: EditorView,
  text: string,
  peers: ReadonlyMap<UserId, Peer>,
): void {
  const length = view.state.doc.length;
  const at = (position: number) =>
    Math.min(length, toUtf16Offset(text, position));
  const ranges = [];
  for (const { info, cursor } of peers.values()) {
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
      ranges.push(
        Decoration.widget({ widget: new CaretWidget(info.name, hue), side: 1 })
          .range(at(position)),
      );
    }
  }
  view.dispatch({ effects: setPeers.of(Decoration.set(ranges, true)) });
}

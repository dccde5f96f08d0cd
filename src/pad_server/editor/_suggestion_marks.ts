/// <reference lib="dom" />
// Agents' pending suggestions drawn in the text, as tracked changes: the
// text a suggestion deletes struck through, the text it inserts shown
// where it goes in the agent's colour with its name, and after the last of
// its changes, at the end of that line, the agent's name with Accept and
// Reject. One decoration set, replaced when the list is read again and
// mapped through every change in between, so the marks move with people's
// typing.

import { type Extension, StateEffect, StateField } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  EditorView,
  WidgetType,
} from "@codemirror/view";

/** A suggestion's change, already in the editor's text now. */
export interface PlacedHunk {
  /** Where the deleted text starts, in the editor's units. */
  readonly from: number;
  /** Where it ends (`from` when nothing is deleted). */
  readonly to: number;
  /** What is put at `from`. */
  readonly inserted: string;
}

/** A pending suggestion, placed in the editor's text now. */
export interface PlacedSuggestion {
  readonly id: string;
  readonly author: { readonly name: string; readonly hue: number };
  readonly agent: boolean;
  readonly hunks: readonly PlacedHunk[];
}

/**
 * What the buttons do; `where` is the button clicked, for a failure to be
 * shown beside it.
 */
export type Decide = (
  id: string,
  verdict: "accept" | "reject",
  where?: HTMLElement,
) => void;

/** How long a failed decision's note stays, unless dismissed sooner. */
const FAILURE_MS = 12_000;

/**
 * Say why a decision failed beside `where`, the button the person clicked:
 * a note fixed on the page where the button was, so it stays when the
 * suggestion's marks and panel entry are redrawn or gone. Click it to
 * dismiss it.
 */
export function showFailure(where: HTMLElement, message: string): void {
  const box = where.getBoundingClientRect();
  const note = document.createElement("div");
  note.className = "decision-failure";
  note.setAttribute("role", "alert");
  note.textContent = message;
  note.title = "Click to dismiss";
  note.style.left = `${Math.max(4, Math.min(box.left, innerWidth - 324))}px`;
  note.style.top = `${box.bottom + 4}px`;
  const close = () => note.remove();
  note.addEventListener("click", close);
  setTimeout(close, FAILURE_MS);
  document.body.append(note);
}

/**
 * A small "agent" badge beside a name; its word is drawn by the style, so
 * the name's text stays the name.
 */
export function agentBadge(): HTMLElement {
  const badge = document.createElement("span");
  badge.className = "agent-badge";
  badge.title = "An AI agent, through the MCP server";
  return badge;
}

/** Accept and Reject buttons for suggestion `id`. */
export function decisionButtons(id: string, decide: Decide): HTMLElement[] {
  return (["accept", "reject"] as const).map((verdict) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = verdict;
    button.textContent = verdict === "accept" ? "Accept" : "Reject";
    button.addEventListener("click", () => decide(id, verdict, button));
    return button;
  });
}

/**
 * Text a suggestion would insert, where it would go: in the line, or as
 * lines of their own above a line when it inserts whole lines there.
 */
class InsertedWidget extends WidgetType {
  constructor(
    readonly text: string,
    readonly name: string,
    readonly hue: number,
    readonly lines: boolean,
  ) {
    super();
  }

  override eq(other: InsertedWidget): boolean {
    return other.text === this.text && other.name === this.name &&
      other.hue === this.hue && other.lines === this.lines;
  }

  toDOM(): HTMLElement {
    const span = document.createElement(this.lines ? "div" : "ins");
    span.className = this.lines
      ? "suggestion-inserted suggestion-lines"
      : "suggestion-inserted";
    span.style.setProperty("--hue", String(this.hue));
    span.title = `Suggested by ${this.name}`;
    span.textContent = this.text;
    return span;
  }

  override ignoreEvent(): boolean {
    return true;
  }
}

/** The author, and Accept and Reject, after a suggestion's last change. */
class ActionsWidget extends WidgetType {
  constructor(
    readonly suggestion: PlacedSuggestion,
    readonly decide: Decide,
  ) {
    super();
  }

  override eq(other: ActionsWidget): boolean {
    const [mine, theirs] = [this.suggestion, other.suggestion];
    return mine.id === theirs.id && mine.author.name === theirs.author.name &&
      mine.author.hue === theirs.author.hue && mine.agent === theirs.agent;
  }

  toDOM(): HTMLElement {
    const { id, author, agent } = this.suggestion;
    const box = document.createElement("span");
    box.className = "suggestion-actions";
    box.dataset.suggestion = id;
    box.style.setProperty("--hue", String(author.hue));
    const name = document.createElement("span");
    name.className = "suggestion-author";
    name.textContent = author.name;
    if (agent) name.append(agentBadge());
    box.append(name, ...decisionButtons(id, this.decide));
    return box;
  }

  override ignoreEvent(): boolean {
    return true;
  }
}

const setMarks = StateEffect.define<DecorationSet>();

/** The field that holds the suggestions' decorations. */
export const suggestionMarks: Extension = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, transaction) {
    let next = value.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (effect.is(setMarks)) next = effect.value;
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/** Draw `suggestions` on `view`, replacing those drawn before. */
export function showSuggestions(
  view: EditorView,
  suggestions: readonly PlacedSuggestion[],
  decide: Decide,
): void {
  const length = view.state.doc.length;
  const ranges = [];
  for (const suggestion of suggestions) {
    const { author, hunks } = suggestion;
    let end = 0;
    for (const hunk of hunks) {
      const from = Math.min(hunk.from, length);
      const to = Math.min(Math.max(hunk.to, from), length);
      if (to > from) {
        ranges.push(
          Decoration.mark({
            class: "suggestion-deleted",
            attributes: {
              style: `--hue:${author.hue}`,
              title: `${author.name} suggests deleting this`,
            },
          }).range(from, to),
        );
      }
      const { inserted } = hunk;
      if (inserted.endsWith("\n") && view.state.doc.lineAt(to).from === to) {
        const lines = inserted.slice(0, -1);
        ranges.push(
          Decoration.widget({
            widget: new InsertedWidget(lines, author.name, author.hue, true),
            block: true,
            side: -1,
          }).range(to),
        );
      } else if (inserted !== "") {
        ranges.push(
          Decoration.widget({
            widget: new InsertedWidget(
              inserted,
              author.name,
              author.hue,
              false,
            ),
            side: 1,
          }).range(to),
        );
      }
      end = Math.max(end, to);
    }
    // At the end of the line, so the buttons split no word.
    ranges.push(
      Decoration.widget({
        widget: new ActionsWidget(suggestion, decide),
        side: 2,
      }).range(view.state.doc.lineAt(end).to),
    );
  }
  view.dispatch({ effects: setMarks.of(Decoration.set(ranges, true)) });
}

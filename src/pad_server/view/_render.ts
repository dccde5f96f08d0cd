/// <reference lib="dom" />
// What the view draws of a pad: its text in a read-only editor (changes
// applied as the smallest replacement, so a selection survives), the
// agent's pending suggestions in place and in a list with Accept and
// Reject (the editor page's marks and buttons), and the people present.

import { EditorState } from "@codemirror/state";
import { EditorView, lineNumbers } from "@codemirror/view";
import type { SuggestionView } from "../suggestion_desk.ts";
import type { UserId } from "../../rustpad/protocol.ts";
import type { Peer } from "../editor/_peers.ts";
import { peerDecorations, showPeers } from "../editor/_cursors.ts";
import {
  agentBadge,
  type Decide,
  decisionButtons,
  showSuggestions,
  suggestionMarks,
} from "../editor/_suggestion_marks.ts";

/** Someone in the pad, with carets and selections in code points. */
export interface ViewPerson {
  readonly id: number;
  readonly name: string;
  readonly hue: number;
  readonly agent: boolean;
  readonly cursors: readonly number[];
  readonly selections: readonly (readonly number[])[];
}

/** A pad as the view's tools answer it (`src/tools/view_tools.ts`). */
export interface ViewPad {
  readonly id: string;
  readonly revision: number;
  readonly text: string;
  readonly agent: { readonly name: string; readonly hue: number };
  readonly people: readonly ViewPerson[];
  /** What the view passes back to wait for people to move. */
  readonly people_stamp: string;
  readonly suggestions: readonly SuggestionView[];
  /** The latest decided suggestions, each with who decided. */
  readonly decisions: readonly SuggestionView[];
}

function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

/** A read-only editor in `#editor`; `onSelect` hears selection changes. */
export function createEditor(
  onSelect: (state: EditorState) => void,
): EditorView {
  return new EditorView({
    parent: byId("editor"),
    state: EditorState.create({
      doc: "",
      extensions: [
        lineNumbers(),
        EditorView.lineWrapping,
        EditorState.readOnly.of(true),
        suggestionMarks,
        peerDecorations,
        EditorView.updateListener.of((update) => {
          if (update.selectionSet) onSelect(update.state);
        }),
      ],
    }),
  });
}

/** Replace the editor's text with `text`, changing only what differs. */
function setText(view: EditorView, text: string): void {
  const old = view.state.doc.toString();
  if (old === text) return;
  let start = 0;
  const shorter = Math.min(old.length, text.length);
  while (start < shorter && old[start] === text[start]) start++;
  let end = 0;
  while (
    end < shorter - start &&
    old[old.length - 1 - end] === text[text.length - 1 - end]
  ) end++;
  view.dispatch({
    changes: {
      from: start,
      to: old.length - end,
      insert: text.slice(start, text.length - end),
    },
  });
}

/** Draw `pad`: text, suggestions, people. */
export function renderPad(
  view: EditorView,
  pad: ViewPad,
  decide: Decide,
): void {
  byId("pad-id").textContent = pad.id;
  const status = byId("status");
  status.dataset.status = "connected";
  status.textContent = `revision ${pad.revision}`;
  setText(view, pad.text);
  document.documentElement.dataset.revision = String(pad.revision);
  showSuggestions(
    view,
    pad.suggestions.map((suggestion) => ({
      id: suggestion.id,
      author: suggestion.author,
      agent: suggestion.author.agent,
      hunks: suggestion.hunks,
    })),
    decide,
  );
  renderList(pad.suggestions, decide);
  renderDecisions(pad.decisions ?? []);
  renderPeople(pad);
  // Everyone's carets and selections, the agent's with its badge.
  const peers = new Map<UserId, Peer>(pad.people.map((person) => [
    person.id,
    {
      info: { name: person.name, hue: person.hue },
      cursor: {
        cursors: [...person.cursors],
        selections: person.selections.map(([start = 0, end = 0]) =>
          [start, end] as [number, number]
        ),
      },
    },
  ]));
  const agents = new Set(
    pad.people.filter((person) => person.agent).map((person) => person.id),
  );
  showPeers(view, pad.text, peers, agents);
}

function renderList(suggestions: readonly SuggestionView[], decide: Decide) {
  byId("suggestions").hidden = suggestions.length === 0;
  byId("suggestion-count").textContent = String(suggestions.length);
  byId("suggestion-list").replaceChildren(...suggestions.map((suggestion) => {
    const item = document.createElement("li");
    item.dataset.suggestion = suggestion.id;
    item.style.setProperty("--hue", String(suggestion.author.hue % 360));
    const author = document.createElement("strong");
    author.className = "suggestion-author";
    author.textContent = suggestion.author.name;
    const summary = document.createElement("p");
    summary.textContent = suggestion.summary;
    item.append(author, agentBadge(), summary);
    item.append(...decisionButtons(suggestion.id, decide));
    return item;
  }));
}

/** Who decided the latest suggestions: "Accepted by Ana: <summary>". */
function renderDecisions(decisions: readonly SuggestionView[]): void {
  byId("decisions").hidden = decisions.length === 0;
  byId("decision-list").replaceChildren(...decisions.map((suggestion) => {
    const item = document.createElement("li");
    item.dataset.suggestion = suggestion.id;
    const verdict = suggestion.status === "accepted" ? "Accepted" : "Rejected";
    const who = document.createElement("strong");
    who.textContent = `${verdict} by ${suggestion.decidedBy ?? "someone"}`;
    // The agent wrote the summary: shown as text, never as markup.
    item.append(
      who,
      `: ${suggestion.summary} (suggested by ${suggestion.author.name})`,
    );
    return item;
  }));
}

function renderPeople(pad: ViewPad): void {
  byId("people").replaceChildren(...pad.people.map((person) => {
    const item = document.createElement("li");
    item.style.setProperty("--hue", String(person.hue % 360));
    item.append(person.name);
    if (person.agent) item.append(agentBadge());
    return item;
  }));
  byId("count").textContent = String(pad.people.length);
}

/** A hunk of `get_changes`: lines and who wrote them. */
export interface ChangedLines {
  readonly start_line: number;
  readonly end_line: number;
  readonly authors: readonly {
    readonly name: string;
    readonly self: boolean;
  }[];
}

/**
 * List what changed since the view opened, and who changed it; `agent` is
 * the name of this server's agent, whom get_changes calls "you".
 */
export function renderChanges(
  hunks: readonly ChangedLines[],
  agent: string,
): void {
  byId("changes").hidden = hunks.length === 0;
  byId("change-list").replaceChildren(...hunks.map((hunk) => {
    const item = document.createElement("li");
    const lines = hunk.start_line === hunk.end_line
      ? `line ${hunk.start_line}`
      : `lines ${hunk.start_line}-${hunk.end_line}`;
    const names = hunk.authors.map((author) =>
      author.self ? `${agent} (agent)` : author.name
    );
    item.textContent = `${lines}: ${names.join(", ") || "removed"}`;
    return item;
  }));
}

/** Say why a decision did not land, or clear it. */
export function showError(message: string | undefined): void {
  const error = byId("suggestion-error");
  error.hidden = message === undefined;
  error.textContent = message ?? "";
}

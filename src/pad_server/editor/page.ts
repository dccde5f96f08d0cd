/// <reference lib="dom" />
/**
 * The editor page the compatible pad server serves at every path outside
 * `/api/`: the pad named by the URL's `#id` in CodeMirror, highlighted in
 * its language, with the people in it (agents badged), their carets, the
 * agents' pending suggestions to accept or reject, and the connection; dark
 * when the system is. `deno task bundle` bundles it for the browser into
 * `../_editor_page.ts`, each language's parser a chunk of its own.
 *
 * @module
 */

import { Annotation, Compartment, EditorState } from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { PAD_ID_PATTERN } from "../../rustpad/pad_id.ts";
import { MAX_TEXT_LENGTH } from "../../rustpad/protocol.ts";
import type { UserId } from "../../rustpad/protocol.ts";
import { peerDecorations, showPeers } from "./_cursors.ts";
import { highlighting, LANGUAGES } from "./_languages.ts";
import { savedPerson, savePerson } from "./_names.ts";
import { renderPeople } from "./_people.ts";
import { suggestionMarks } from "./_suggestion_marks.ts";
import { Suggestions } from "./_suggestions.ts";
import { type ConnectionStatus, PadClient } from "./pad_client.ts";
import { UndoStack } from "./undo_stack.ts";
import {
  fromUtf16Changes,
  toCodePointOffset,
  toUtf16Changes,
  type Utf16Change,
} from "./units.ts";
import type { TextOperation } from "../../ot/operation.ts";

/** Why a change was made: typed, remote, or an undo or redo. */
const origin = Annotation.define<"remote" | "undo" | "redo">();

const element = <T extends HTMLElement>(id: string) =>
  document.getElementById(id) as T;

/** The pad in the URL, or a new random one written into it. */
function padId(): string {
  let id = "";
  try {
    id = decodeURIComponent(location.hash.slice(1));
  } catch { /* a malformed escape: not a pad id */ }
  if (PAD_ID_PATTERN.test(id) && id !== "." && id !== "..") return id;
  const fresh = Array.from(
    crypto.getRandomValues(new Uint8Array(6)),
    (byte) => "abcdefghijklmnopqrstuvwxyz0123456789"[byte % 36],
  ).join("");
  history.replaceState(null, "", `#${fresh}`);
  return fresh;
}

const id = padId();
let user = savedPerson();
/** The user ids of agents the suggestion list names. */
let listedAgents: ReadonlySet<UserId> = new Set();

/**
 * The user ids of agents in the pad: those the pad server marked as
 * agents when they joined (`"agent": true` in their `UserInfo`, see
 * docs/protocol.md), and those the suggestion list names.
 */
function agentIds(): ReadonlySet<UserId> {
  const ids = new Set(listedAgents);
  for (const [id, { info }] of client.peers) if (info.agent) ids.add(id);
  return ids;
}
const language = new Compartment();
/** The language last asked for: a slower fetch of another one is dropped. */
let wantedLanguage = "plaintext";
const undo = new UndoStack();
const statusLabel: Record<ConnectionStatus, string> = {
  connecting: "Connecting…",
  connected: "Connected",
  disconnected: "Disconnected, reconnecting…",
};
let firstText = true;

element("pad-id").textContent = id;
document.title = `${id} · Rustpad`;
const nameInput = element<HTMLInputElement>("name");
nameInput.value = user.name;
const select = element<HTMLSelectElement>("language");
for (const name of LANGUAGES) select.add(new Option(name, name));
// A pad without a language is plain text, as on Rustpad.
select.value = "plaintext";

const client = new PadClient({
  url: `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}` +
    `/api/socket/${encodeURIComponent(id)}`,
  user,
  events: {
    remote: (operation, before) => applyRemote(operation, before),
    peers: () => scheduleRender(),
    language(name) {
      if (![...select.options].some((option) => option.value === name)) {
        select.add(new Option(name, name));
      }
      select.value = name;
      void highlight(name);
    },
    status(status) {
      const label = element("status");
      label.textContent = statusLabel[status];
      label.dataset.status = status;
      element("reconnect").hidden = status !== "disconnected";
      if (status === "connected" && firstText) {
        firstText = false;
        performance.mark("rustpad:first-text");
      }
      scheduleRender();
    },
  },
});

/**
 * The server hangs up on an edit that would make the pad longer than
 * MAX_TEXT_LENGTH code points, as Rustpad does, and the page would resend
 * it on every reconnect: refuse it here, where the person sees why.
 */
const withinLimit = EditorState.transactionFilter.of((transaction) => {
  const { newDoc } = transaction;
  if (
    !transaction.docChanged || transaction.annotation(origin) === "remote" ||
    newDoc.length <= MAX_TEXT_LENGTH ||
    toCodePointOffset(newDoc.toString(), newDoc.length) <= MAX_TEXT_LENGTH
  ) return transaction;
  const notice = element("limit");
  notice.textContent = `Not typed: a pad holds at most ${
    MAX_TEXT_LENGTH.toLocaleString("en")
  } characters.`;
  notice.hidden = false;
  clearTimeout(limitTimer);
  limitTimer = setTimeout(() => notice.hidden = true, 8000);
  return [];
});
let limitTimer: ReturnType<typeof setTimeout> | undefined;

const view = new EditorView({
  parent: element("editor"),
  state: EditorState.create({
    doc: "",
    extensions: [
      lineNumbers(),
      drawSelection(),
      highlightActiveLine(),
      EditorView.lineWrapping,
      peerDecorations,
      suggestionMarks,
      language.of([]),
      withinLimit,
      keymap.of([
        { key: "Mod-z", run: () => step(undo.undo(), "undo") },
        { key: "Mod-y", run: () => step(undo.redo(), "redo") },
        { key: "Mod-Shift-z", run: () => step(undo.redo(), "redo") },
        {
          key: "Enter",
          run: (editor) => {
            editor.dispatch(editor.state.replaceSelection("\n"), {
              scrollIntoView: true,
            });
            return true;
          },
        },
      ]),
      EditorView.updateListener.of((update) => {
        for (const transaction of update.transactions) {
          const kind = transaction.annotation(origin);
          if (!transaction.docChanged || kind === "remote") continue;
          const changes: Utf16Change[] = [];
          transaction.changes.iterChanges((from, to, _b, _e, inserted) =>
            changes.push({ from, to, insert: inserted.toString() })
          );
          const before = client.text;
          const operation = fromUtf16Changes(before, changes);
          if (kind === "undo") undo.pushRedo(operation, before);
          else if (kind === "redo") undo.pushUndo(operation, before);
          else undo.record(operation, before);
          client.edit(operation);
        }
        if (update.selectionSet || update.docChanged) scheduleCursor();
      }),
    ],
  }),
});

/** Apply an undo or redo as a local change. */
function step(
  operation: TextOperation | undefined,
  kind: "undo" | "redo",
): boolean {
  if (operation === undefined) return true;
  view.dispatch({
    changes: toUtf16Changes(operation, client.text),
    annotations: origin.of(kind),
    scrollIntoView: true,
  });
  return true;
}

function applyRemote(operation: TextOperation, before: string): void {
  undo.transform(operation);
  view.dispatch({
    changes: toUtf16Changes(operation, before),
    annotations: origin.of("remote"),
  });
  suggestions.textChanged();
}

/** Highlight the text as `name`, once its parser has been fetched. */
async function highlight(name: string): Promise<void> {
  wantedLanguage = name;
  const extension = await highlighting(name);
  // Another language may have been chosen while this one was fetched.
  if (wantedLanguage !== name) return;
  view.dispatch({ effects: language.reconfigure(extension) });
  if (performance.getEntriesByName("rustpad:highlighted").length === 0) {
    performance.mark("rustpad:highlighted");
  }
}

let renderQueued = false;
/** Redraw carets and people once the current update is over. */
function scheduleRender(): void {
  if (renderQueued) return;
  renderQueued = true;
  queueMicrotask(() => {
    renderQueued = false;
    const agents = agentIds();
    showPeers(view, client.text, client.peers, agents);
    renderPeople(
      element("people"),
      element("count"),
      user,
      client.peers,
      agents,
    );
  });
}

let cursorTimer: ReturnType<typeof setTimeout> | undefined;
/** Send this caret at most every 50 ms: the server's queue holds 16. */
function scheduleCursor(): void {
  cursorTimer ??= setTimeout(() => {
    cursorTimer = undefined;
    const text = client.text;
    const count = (offset: number) => toCodePointOffset(text, offset);
    const { ranges, main } = view.state.selection;
    client.setCursor({
      cursors: [count(main.head)],
      selections: ranges.filter((range) => !range.empty).map((
        range,
      ) => [count(range.from), count(range.to)]),
    });
  }, 50);
}

select.addEventListener("change", () => client.setLanguage(select.value));
nameInput.addEventListener("change", () => {
  const name = nameInput.value.trim();
  if (name === "") return void (nameInput.value = user.name);
  user = { name, hue: user.hue };
  savePerson(user);
  client.setUser(user);
  scheduleRender();
});
element("reconnect").addEventListener("click", () => client.reconnect());
element("copy-link").addEventListener("click", async () => {
  const button = element("copy-link");
  const link = `${location.origin}/#${encodeURIComponent(id)}`;
  try {
    await navigator.clipboard.writeText(link);
    button.textContent = "Copied";
  } catch {
    // No clipboard (an insecure origin): the link is in the address bar.
    button.textContent = "Copy failed";
  }
  setTimeout(() => button.textContent = "Copy link", 1500);
});
addEventListener("hashchange", () => location.reload());
// Leaving with edits the server has not acknowledged would lose them.
addEventListener("beforeunload", (event) => {
  if (client.pending) event.preventDefault();
});
const suggestions = new Suggestions({
  padId: id,
  client,
  view,
  userId: () => client.userId,
  agents(ids) {
    listedAgents = ids;
    scheduleRender();
  },
});
view.focus();

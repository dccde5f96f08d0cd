/// <reference lib="dom" />
// The page's side of agents' suggestions: the pad server pushes the pad's
// list (server-sent events, each entry's text bounded) whenever it changes,
// and the page reads it right after a decision; it carries each pending suggestion from the list's revision to
// the text the page shows, draws it in the text and in the side panel, and
// sends a person's Accept or Reject, one by one or all, as the user of the
// page's pad socket (the pad server names them by what it announced). A
// decision that fails says why beside the button the person clicked.

import type { EditorView } from "@codemirror/view";
import type { SuggestionList, SuggestionView } from "../suggestion_desk.ts";
import type { UserId } from "../../rustpad/protocol.ts";
import type { PadClient } from "./pad_client.ts";
import {
  agentBadge,
  type Decide,
  decisionButtons,
  type PlacedSuggestion,
  showFailure,
  showSuggestions,
} from "./_suggestion_marks.ts";

/** What the suggestions need of the page. */
export interface SuggestionsOptions {
  readonly padId: string;
  readonly client: PadClient;
  readonly view: EditorView;
  /** The page's user id in the pad: the pad server names who decided. */
  readonly userId: () => UserId | undefined;
  /** The user ids that are agents changed. */
  readonly agents: (ids: ReadonlySet<UserId>) => void;
}

const element = <T extends HTMLElement>(id: string) =>
  document.getElementById(id) as T;

/** The pad's suggestions, kept in view. */
export class Suggestions {
  readonly #options: SuggestionsOptions;
  readonly #url: string;
  /** The revision of the list shown; an older answer is ignored. */
  #shown = -1;
  /** A list of a revision this page has not reached yet. */
  #waiting: SuggestionList | undefined;
  #pending: readonly SuggestionView[] = [];
  #agentKey = "";
  #listKey = "";

  constructor(options: SuggestionsOptions) {
    this.#options = options;
    const pad = encodeURIComponent(options.padId);
    this.#url = `/api/suggestions/${pad}`;
    // Reconnects by itself; each connection begins with the list.
    const events = new EventSource(`/api/suggestion-events/${pad}`);
    events.addEventListener("list", (event) => {
      try {
        this.#show(JSON.parse((event as MessageEvent<string>).data));
      } catch {
        // Not a list: the next event is.
      }
    });
    element("accept-all").addEventListener("click", () => this.#all("accept"));
    element("reject-all").addEventListener("click", () => this.#all("reject"));
    void this.refresh();
  }

  /** Read the list now. */
  async refresh(): Promise<void> {
    let list: SuggestionList;
    try {
      const response = await fetch(this.#url, { cache: "no-store" });
      if (!response.ok) return;
      list = await response.json();
    } catch {
      return; // the server is away: the connection status says so
    }
    this.#show(list);
  }

  /** Show `list` once the page's text reaches its revision. */
  #show(list: SuggestionList): void {
    if (list.revision < this.#shown) return;
    const key = JSON.stringify(list);
    // The same list again: the marks drawn have moved with the text. A list
    // still waiting may be shown now: an acknowledgement of this page's own
    // edit moves its revision on without a change to its text.
    if (key !== this.#listKey) {
      this.#listKey = key;
      this.#waiting = list;
      this.#agents(list.agentIds);
    }
    this.textChanged();
  }

  /** The page's text moved on: a list it was behind can be shown now. */
  textChanged(): void {
    const list = this.#waiting;
    if (list === undefined || list.revision > this.#options.client.revision) {
      return;
    }
    this.#waiting = undefined;
    this.#shown = list.revision;
    // The revision the marks were placed at, for whoever watches the page.
    element("suggestions").dataset.revision = String(list.revision);
    this.#pending = list.suggestions.filter((s) => s.status === "pending");
    const placed: PlacedSuggestion[] = [];
    for (const suggestion of this.#pending) {
      const anchors = suggestion.hunks.flatMap(({ from, to }) => [
        { at: from, assoc: to > from ? 1 as const : -1 as const },
        { at: to, assoc: -1 as const },
      ]);
      const at = this.#options.client.carry(list.revision, anchors);
      if (at === undefined) continue;
      placed.push({
        id: suggestion.id,
        author: suggestion.author,
        agent: suggestion.author.agent,
        hunks: suggestion.hunks.map(({ inserted }, index) => ({
          from: at[2 * index]!,
          to: Math.max(at[2 * index]!, at[2 * index + 1]!),
          inserted,
        })),
      });
    }
    showSuggestions(this.#options.view, placed, this.#decideOne);
    this.#renderPanel();
  }

  readonly #decideOne: Decide = (id, verdict, where) =>
    void this.#decide([id], verdict, where);

  async #all(verdict: "accept" | "reject"): Promise<void> {
    await this.#decide(
      this.#pending.map(({ id }) => id),
      verdict,
      element(`${verdict}-all`),
    );
  }

  /** Decide each of `ids` in turn; say what was refused beside `where`. */
  async #decide(
    ids: readonly string[],
    verdict: "accept" | "reject",
    where: HTMLElement | undefined,
  ) {
    const errors: string[] = [];
    const userId = this.#options.userId();
    for (const id of ids) {
      try {
        const response = await fetch(
          `${this.#url}/${encodeURIComponent(id)}`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              verdict,
              ...(userId !== undefined && { user_id: userId }),
            }),
          },
        );
        if (!response.ok) {
          const body = await response.json().catch(() => ({}));
          errors.push(body.error ?? `HTTP ${response.status}`);
        }
      } catch (error) {
        errors.push((error as Error).message);
      }
    }
    const message = errors.join("\n");
    const alert = element("suggestion-error");
    alert.textContent = message;
    alert.hidden = errors.length === 0;
    if (errors.length > 0 && where !== undefined && where.isConnected) {
      showFailure(where, message);
    }
    await this.refresh();
  }

  #agents(ids: readonly number[]): void {
    const key = ids.join(",");
    if (key === this.#agentKey) return;
    this.#agentKey = key;
    this.#options.agents(new Set<UserId>(ids));
  }

  /** A link to the whole change of a suggestion shown cut. */
  #whole(suggestion: SuggestionView): HTMLElement {
    const { inserted, deleted } = suggestion.cut!;
    const link = document.createElement("a");
    link.className = "suggestion-whole";
    link.href = `${this.#url}/${encodeURIComponent(suggestion.id)}`;
    link.target = "_blank";
    link.textContent =
      `Shown cut: the whole change inserts ${inserted} and deletes ${deleted} characters`;
    return link;
  }

  #renderPanel(): void {
    element("suggestions").hidden = this.#pending.length === 0 &&
      element("suggestion-error").hidden;
    element("suggestion-count").textContent = String(this.#pending.length);
    element("suggestion-list").replaceChildren(
      ...this.#pending.map((suggestion) => {
        const item = document.createElement("li");
        item.dataset.suggestion = suggestion.id;
        item.style.setProperty("--hue", String(suggestion.author.hue % 360));
        const author = document.createElement("strong");
        author.textContent = suggestion.author.name;
        if (suggestion.author.agent) author.append(agentBadge());
        // The agent wrote it: shown as text, never as markup.
        const summary = document.createElement("p");
        summary.textContent = suggestion.summary;
        item.append(author, summary);
        if (suggestion.cut !== undefined) item.append(this.#whole(suggestion));
        item.append(...decisionButtons(suggestion.id, this.#decideOne));
        return item;
      }),
    );
  }
}

// A suggestion desk for the page's browser tests: one agent's suggestion on
// one pad, held as an operation on the revision it was made at and carried
// through the pad's later operations, which the agent hears over a raw
// socket of its own (its user id is the agents' list); accepted, it is sent
// over that socket as the agent's edit.

import type { TextOperation } from "../../src/ot/operation.ts";
import {
  encodeMessage,
  parseServerMessage,
} from "../../src/rustpad/protocol.ts";
import type {
  SuggestionDecision,
  SuggestionDesk,
  SuggestionList,
  SuggestionStatus,
  SuggestionView,
} from "../../src/pad_server/suggestion_desk.ts";
import { toUtf16Changes } from "../../src/pad_server/editor/units.ts";
import { TestClient, waitUntil } from "./_test_client.ts";

const AUTHOR = { name: "Agent Smith", hue: 280, agent: true };

/** A desk holding at most one suggestion, by an agent on a raw socket. */
export class OneSuggestionDesk implements SuggestionDesk {
  #agent: TestClient | undefined;
  #me = -1;
  /** The pad's operations, as the agent heard them. */
  readonly #history: TextOperation[] = [];
  #suggestion:
    | { operation: TextOperation; base: number; summary: string }
    | undefined;
  #status: SuggestionStatus = "pending";
  /**
   * A refusal to give the next decision, as when the suggestion turned
   * outdated after the page last read the list.
   */
  refuseNext: string | undefined;
  /** Who decided, as the page said. */
  decidedBy: string | undefined;
  /** How many decisions were asked for. */
  decisions = 0;

  /** Join `padId` on `serverUrl` as the agent, and hear its history. */
  async join(serverUrl: string, padId: string): Promise<void> {
    const agent = new TestClient(serverUrl, padId);
    this.#agent = agent;
    agent.socket.addEventListener("message", (event) => {
      const message = parseServerMessage(event.data);
      if ("Identity" in message) this.#me = Number(message.Identity);
      if ("History" in message) {
        const { start, operations } = message.History;
        for (const [index, { operation }] of operations.entries()) {
          if (start + index === this.#history.length) {
            this.#history.push(operation);
          }
        }
      }
    });
    await new Promise((resolve) =>
      agent.socket.addEventListener("open", resolve, { once: true })
    );
    agent.send(encodeMessage({ ClientInfo: AUTHOR }));
    await waitUntil(() => this.#me >= 0 && agent.frames.length >= 2);
  }

  /** How many operations of the pad the agent heard. */
  get revision(): number {
    return this.#history.length;
  }

  /** The pad's text as the agent last heard it. */
  get text(): string {
    return this.#history.reduce((text, op) => op.apply(text), "");
  }

  /** Suggest `operation` on the text now; the agent's caret goes to `at`. */
  suggest(operation: TextOperation, summary: string, at: number): void {
    this.#suggestion = { operation, base: this.#history.length, summary };
    this.#agent!.send(
      encodeMessage({ CursorData: { cursors: [at], selections: [] } }),
    );
  }

  list(_padId: string): Promise<SuggestionList> {
    const revision = this.#history.length;
    const suggestion = this.#view();
    return Promise.resolve({
      revision,
      suggestions: suggestion === undefined ? [] : [suggestion],
      agentIds: [this.#me],
    });
  }

  async decide(
    _padId: string,
    suggestionId: string,
    verdict: "accept" | "reject",
    by: string | undefined,
  ): Promise<SuggestionDecision> {
    this.decisions++;
    const refusal = this.refuseNext;
    this.refuseNext = undefined;
    if (refusal !== undefined) {
      return { ok: false, kind: "final", error: refusal };
    }
    if (this.#suggestion === undefined || suggestionId !== "s1") {
      return { ok: false, kind: "missing", error: "No such suggestion" };
    }
    if (this.#status !== "pending") {
      return {
        ok: false,
        kind: "final",
        error:
          `Cannot ${verdict} suggestion s1 as it is decided: current status is ${this.#status}`,
        suggestion: this.#view()!,
      };
    }
    this.decidedBy = by;
    if (verdict === "accept") {
      const revision = this.#history.length;
      this.#agent!.send(
        encodeMessage({ Edit: { revision, operation: this.#rebased() } }),
      );
      await waitUntil(() => this.#history.length > revision, 5000);
    }
    this.#status = verdict === "accept" ? "accepted" : "rejected";
    return { ok: true, suggestion: this.#view()! };
  }

  /** Leave the pad. */
  async close(): Promise<void> {
    await this.#agent?.close();
  }

  /** The suggestion carried through the operations since its revision. */
  #rebased(): TextOperation {
    let { operation, base } = this.#suggestion!;
    for (const later of this.#history.slice(base)) {
      [operation] = operation.transform(later);
    }
    return operation;
  }

  #view(): SuggestionView | undefined {
    if (this.#suggestion === undefined) return undefined;
    const text = this.text;
    const hunks = this.#status !== "pending"
      ? []
      : toUtf16Changes(this.#rebased(), text).map(({ from, to, insert }) => ({
        from,
        to,
        deleted: text.slice(from, to),
        inserted: insert,
      }));
    return {
      id: "s1",
      status: this.#status,
      author: AUTHOR,
      summary: this.#suggestion.summary,
      createdAt: new Date(0).toISOString(),
      expiresAt: new Date(3_600_000).toISOString(),
      hunks,
      ...(this.decidedBy === undefined ? {} : { decidedBy: this.decidedBy }),
    };
  }
}

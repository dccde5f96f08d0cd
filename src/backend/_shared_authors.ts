// Which identity each agent connection of a pad is, told to the pad server
// too when it offers the agent API, so that any agent process (one started
// after the agent that wrote ends) names the real authors in get_changes.

import type { UserId } from "../rustpad/protocol.ts";
import type { AgentLink } from "./_agent_link.ts";
import type { AuthorLedger } from "./state_store.ts";

/** An author as the pad server lists it. */
interface ListedAuthor {
  readonly userId: number;
  readonly agent: boolean;
  readonly identity: string;
}

/** `inner`, and the pad server's authors when it keeps them. */
export class SharedAuthors implements AuthorLedger {
  readonly #inner: AuthorLedger;
  readonly #link: () => Promise<AgentLink | undefined>;
  readonly #name: (identity: string) => string;

  /**
   * @param inner This process's ledger (memory, or Redis for replicas).
   * @param link The agent API, once probed; `undefined` on a Rustpad.
   * @param name The pad name of an identity's connections.
   */
  constructor(
    inner: AuthorLedger,
    link: () => Promise<AgentLink | undefined>,
    name: (identity: string) => string,
  ) {
    this.#inner = inner;
    this.#link = link;
    this.#name = name;
  }

  /** Record here, and tell the pad server. */
  record(pad: string, userId: UserId, identity: string): void {
    this.#inner.record(pad, userId, identity);
    this.#link().then(
      (link) =>
        link?.post(`authors/${encodeURIComponent(pad)}`, {
          userId: Number(userId),
          name: this.#name(identity),
          identity,
        }),
    ).catch(() => {/* Named as a person then: the pad server is away. */});
  }

  /** Learn from the inner ledger, then from the pad server. */
  async learn(pad: string, userIds: readonly UserId[]): Promise<void> {
    await this.#inner.learn(pad, userIds);
    const unknown = userIds.filter((id) =>
      this.#inner.identityOf(pad, id) === undefined
    );
    if (unknown.length === 0) return;
    const link = await this.#link().catch(() => undefined);
    if (link === undefined) return;
    const { authors } = await link.get<{ authors: ListedAuthor[] }>(
      `authors/${encodeURIComponent(pad)}`,
    ).catch(() => ({ authors: [] }));
    const wanted = new Set(unknown.map(Number));
    for (const author of authors) {
      if (author.agent && wanted.has(author.userId)) {
        this.#inner.record(pad, author.userId as UserId, author.identity);
      }
    }
  }

  /** As the inner ledger knows it. */
  identityOf(pad: string, userId: UserId): string | undefined {
    return this.#inner.identityOf(pad, userId);
  }
}

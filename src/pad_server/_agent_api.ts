// The pad server's agent API: with `agentSecret`, the pad server keeps the
// suggestions and authors of every agent process that shares it, so they
// outlive the process that made them, and serves them to people (the page,
// `/api/suggestions/`). Every request carries
// `Authorization: Bearer <agentSecret>` (else 401); without the secret
// these routes answer 404, as on a real Rustpad, which is how an agent
// tells the two apart.
//
// - `GET /api/agent/capabilities`: `{"suggestions": true, "authors": true,
//   "version": 1}`.
// - `POST /api/agent/suggestions/{pad}`: hold one, body `{identity, agent,
//   author: {name, hue}, summary, revision, operation, diff, language?,
//   ttlMs, identities}` (the operation on the pad's text at `revision`):
//   201 with the record; 429 past a bound or the identity's fair share of
//   it; 409 when the pad is not at that revision.
// - `GET /api/agent/suggestions/{pad}?since=N&wait=MS`: `{changes,
//   revision, records}`, the records without operations and their diffs
//   cut; with `wait`, answered once `changes` is no longer `since` (a long
//   poll of at most 25 s).
// - `POST /api/agent/suggestions/{pad}/{id}`: `{"action": "withdraw",
//   "agent"}` or `{"action": "decide", "verdict", "by"?}`: 200 with the
//   view; 404 or 409 with `{error}` as the people's route.
// - `GET /api/agent/authors/{pad}`: `{authors: [{userId, name, agent,
//   identity}]}`; `POST` one `{userId, name, identity}`: 204.

import { MemoryAgentStore } from "./agent_store.ts";
import { serveAgent } from "./_agent_routes.ts";
import type { Room } from "./_room.ts";
import { SuggestionKeeper } from "./_suggestion_keeper.ts";
import type { PadServerOptions } from "./pad_server_options.ts";
import type { SuggestionDesk } from "./suggestion_desk.ts";

/** The bounds of the issue: 100 pending per pad, 1,000 in all. */
const LIMITS = { perPad: 100, total: 1000 };

/** The agent API of one pad server, and the desk it gives people. */
export class AgentApi {
  readonly #keeper: SuggestionKeeper;
  readonly #secret: string;
  /** The people's side: the keeper's suggestions. */
  readonly desk: SuggestionDesk;

  /** The API `options` ask for, or `undefined` without a secret. */
  static of(
    options: PadServerOptions,
    rooms: ReadonlyMap<string, Room>,
  ): AgentApi | undefined {
    const secret = options.agentSecret;
    if (secret === undefined) return undefined;
    if (secret.length < 16) {
      throw new RangeError(
        `Cannot start the agent API as its secret is too short: current length is ${secret.length}, at least 16 characters are needed`,
      );
    }
    return new AgentApi(
      secret,
      new SuggestionKeeper(
        options.agentStore ?? new MemoryAgentStore(),
        { find: (padId) => rooms.get(padId) },
        { limits: options.suggestionLimits ?? LIMITS },
      ),
    );
  }

  constructor(secret: string, keeper: SuggestionKeeper) {
    this.#secret = secret;
    this.#keeper = keeper;
    this.desk = {
      list: (padId) => Promise.resolve(keeper.list(padId)),
      decide: (padId, id, verdict, by) =>
        Promise.resolve(keeper.decide(padId, id, verdict, by)),
      whole: (padId, id) => Promise.resolve(keeper.whole(padId, id)),
      watch: (padId, listener) => keeper.watch(padId, listener),
    };
  }

  /** Answer an agent API request, else `undefined`. */
  serve(request: Request): Promise<Response> | undefined {
    return serveAgent(request, this.#keeper, this.#secret);
  }

  /** Stop the keeper's timers. */
  close(): void {
    this.#keeper.close();
  }
}

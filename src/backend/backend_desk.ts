/**
 * The suggestions a {@linkcode Backend} holds, served to a pad server's
 * page so the people in a pad accept or reject them: pass a
 * {@linkcode BackendDesk} as `startPadServer({ suggestions })`, then
 * attach the backend once it exists (it needs the pad server's URL, so the
 * pad server starts first). Until then the page sees no suggestions.
 *
 * @module
 */

import type { Backend } from "./backend.ts";
import type { SuggestionBook } from "./suggestions.ts";

/**
 * A pad server's desk for the suggestions of a backend attached later.
 *
 * @example The page decides what an MCP server's agents suggest
 * ```ts ignore
 * import { BackendDesk, createBackend, loadConfig } from "@rustpad-mcp/server";
 * import { startPadServer } from "@rustpad-mcp/server/pad-server";
 *
 * const desk = new BackendDesk();
 * await using pads = await startPadServer({ suggestions: desk });
 * await using backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
 * desk.attach(backend);
 * ```
 */
export class BackendDesk {
  #backend: Backend | undefined;

  /** Serve `backend`'s suggestions from now on. */
  attach(backend: Backend): void {
    this.#backend = backend;
  }

  /** The pad's suggestions now; none before a backend is attached. */
  list(padId: string): ReturnType<SuggestionBook["list"]> {
    return this.#backend === undefined
      ? Promise.resolve({ revision: 0, suggestions: [], agentIds: [] })
      : this.#backend.suggestions.list(padId);
  }

  /** Accept or reject one pending suggestion, as the person named `by`. */
  decide(
    ...[padId, id, verdict, by]: Parameters<SuggestionBook["decide"]>
  ): ReturnType<SuggestionBook["decide"]> {
    if (this.#backend === undefined) {
      return Promise.resolve({
        ok: false,
        kind: "missing",
        error:
          `Cannot decide suggestion "${id}" as no MCP server is attached yet: current pads hold no suggestions`,
      });
    }
    return this.#backend.suggestions.decide(padId, id, verdict, by);
  }
}

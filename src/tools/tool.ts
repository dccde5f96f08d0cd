/**
 * What a tool is, as plain values: a {@linkcode ToolDefinition} (name,
 * title, description, zod schemas, annotations and a `run` handler), the
 * {@linkcode ToolContext} one agent's calls run in, and the
 * {@linkcode ToolResult} a handler returns. Nothing here knows MCP: the MCP
 * layer turns definitions into registered tools, and a test can call `run`
 * directly.
 *
 * @module
 */

import type { z } from "zod";
import type { Backend } from "../backend/backend.ts";
import type { Config } from "../config/config.ts";
import type { RustpadHttpClient } from "../rustpad/http_client.ts";
import type { SessionPool } from "../rustpad/session_pool.ts";
import type {
  ConfirmationGuard,
  ElicitConfirm,
} from "../safety/confirmation.ts";
import { RecentPads } from "../backend/recent_pads.ts";
import { SessionHolds } from "./session_holds.ts";

/** The hints a client reads to judge a tool's risk (MCP tool annotations). */
export interface ToolAnnotations {
  /** Changes nothing. */
  readonly readOnlyHint: boolean;
  /** May destroy what people wrote; such tools ask a person first. */
  readonly destructiveHint: boolean;
  /** The same call twice has the effect of one. */
  readonly idempotentHint: boolean;
  /**
   * Deals with an open world: true here, as a pad is shared with people
   * whose typing the agent neither controls nor can foresee.
   */
  readonly openWorldHint: boolean;
}

/**
 * One part of a result's text block: a sentence of ours, or text derived
 * from a pad (its text, people's names), which the MCP layer fences as
 * untrusted, naming `source`.
 */
export type TextPart = string | {
  /** The pad-derived text, verbatim. */
  readonly untrusted: string;
  /** Where it comes from, such as `pad "notes"`. */
  readonly source: string;
};

/**
 * What a tool's handler answers: the structured result (validated against
 * the tool's output schema) and the text block's parts, joined by newlines.
 * A handler that fails throws an `Error` whose message is one sentence a
 * model can act on.
 */
export interface ToolResult {
  /** The structured answer, `structuredContent` in MCP. */
  readonly structuredContent: Record<string, unknown>;
  /** The text block that stands alone, in order. */
  readonly text: readonly TextPart[];
}

/**
 * What one agent's calls run with: the process-wide {@linkcode Backend}
 * and what belongs to this agent alone (over HTTP, one MCP session).
 */
export interface ToolContext {
  /** The configuration. */
  readonly config: Config;
  /** The process-wide state: pads, tokens, keys. */
  readonly backend: Backend;
  /** The live pad connections of this agent's identity (the backend's). */
  readonly sessions: SessionPool;
  /** Rustpad's HTTP API (the backend's). */
  readonly http: RustpadHttpClient;
  /** Confirmation tokens (the backend's). */
  readonly guard: ConfirmationGuard;
  /**
   * The pads this agent's identity has read, for `RUSTPAD_REQUIRE_READ`
   * (the backend's record: per identity, not per session).
   */
  readonly readPads: RecentPads;
  /**
   * Who this agent is among those sharing the backend: what undo and the
   * authors of a change count as its own.
   */
  readonly agent: string;
  /**
   * Whether `agent` is this caller alone (a stdio process, an MCP session,
   * a named identity), so `undo_last_edit` without `edit_id` knows whose
   * last edit to take; `false` for the unnamed identity without a session,
   * one token any number of callers share.
   */
  readonly agentKnown: boolean;
  /** This agent's subscriptions and waits, at most 20 together. */
  readonly holds: SessionHolds;
  /**
   * The identity whose token made this agent's session (`""`: the unnamed
   * one): idempotency keys are its own, and it is its own collaborator.
   */
  readonly identity: string;
  /**
   * The pads this agent opened itself (called a tool on, read as a resource
   * or subscribed to): all that its resource list, completion and log
   * messages tell it of.
   */
  readonly openedPads: OpenedPads;
}

/** At most this many pads are remembered as opened by one agent. */
export const MAX_OPENED_PADS = 1000;

/**
 * The pads one agent opened, the most recent {@linkcode MAX_OPENED_PADS}.
 *
 * @example
 * ```ts
 * import { OpenedPads } from "./tool.ts";
 * import assert from "node:assert/strict";
 *
 * const opened = new OpenedPads();
 * opened.add("notes");
 * assert.equal(opened.has("notes"), true);
 * assert.equal(opened.has("other"), false);
 * ```
 */
export class OpenedPads extends RecentPads {
  /** An empty record of {@linkcode MAX_OPENED_PADS} pads. */
  constructor() {
    super(MAX_OPENED_PADS);
  }
}

/** What one call brings besides its arguments. */
export interface ToolCall {
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  /** Report progress, when the client asked for it. */
  readonly progress?:
    | ((progress: number, total: number, message: string) => void)
    | undefined;
  /** Ask a person in a dialog, when the client can show one. */
  readonly elicit?: ElicitConfirm | undefined;
  /**
   * Whether the host can ask a person in a dialog on this call: inline
   * (`elicit`, 2025 era) or by answering `input_required` (2026 era).
   */
  readonly asks?: boolean | undefined;
  /**
   * The confirm token a person's "yes" to an `input_required` question
   * brought back (2026 era), for a tool that has no `confirm_token` field.
   */
  readonly confirmToken?: string | undefined;
  /** What the client's host says of the call, for the pad's view. */
  readonly host?: HostSays | undefined;
}

/** What a client that renders views (MCP Apps) says of one call. */
export interface HostSays {
  /** Whether the client declared the extension that renders views. */
  readonly views: boolean;
  /** Who the host says initiated the call: "app" (a view) or "model". */
  readonly initiator?: string | undefined;
}

/**
 * A tool: everything a client lists, and the handler that answers a call
 * with arguments already validated against `inputSchema`.
 *
 * @typeParam Input The input schema's shape.
 */
export interface ToolDefinition<
  Input extends z.ZodRawShape = z.ZodRawShape,
> {
  /** The tool's name: the built-in ones are the `TOOL_NAMES`. */
  readonly name: string;
  /** A short human title. */
  readonly title: string;
  /** What it does, when to use it instead of its siblings, how it fails. */
  readonly description: string;
  /** The arguments, each field described. */
  readonly inputSchema: z.ZodObject<Input>;
  /** The shape of `structuredContent`. */
  readonly outputSchema: z.ZodObject;
  /** The risk hints. */
  readonly annotations: ToolAnnotations;
  /**
   * Answer one call.
   *
   * @param args The arguments, parsed by `inputSchema`.
   * @param context The agent's context.
   * @param call Cancellation, progress and dialogs for this call.
   * @returns The result; throws an `Error` on failure.
   */
  run(
    args: z.output<z.ZodObject<Input>>,
    context: ToolContext,
    call: ToolCall,
  ): Promise<ToolResult>;
}

/**
 * A tool as its module states it: a {@linkcode ToolDefinition} whose
 * schemas are functions, built on first use. A start serves tools/list
 * from a generated file (`src/mcp/_tools_list.json`), so building every
 * tool's zod schemas there cost each start about 15 ms for nothing; now a
 * schema is built when a call of its tool first needs it.
 *
 * @typeParam Input The input schema's shape.
 */
export interface ToolSpec<Input extends z.ZodRawShape>
  extends Omit<ToolDefinition<Input>, "inputSchema" | "outputSchema"> {
  /** Build the arguments' schema, each field described. */
  inputSchema(): z.ZodObject<Input>;
  /** Build the shape of `structuredContent`. */
  outputSchema(): z.ZodObject;
}

/**
 * Define a tool, keeping its argument types for `run`. Its schemas are
 * built on first use, once.
 *
 * @param spec The tool, its schemas as functions.
 * @returns The definition.
 *
 * @example
 * ```ts
 * import { defineTool } from "./tool.ts";
 * import { objectSchema } from "./_shared.ts";
 * import { z } from "zod";
 * import assert from "node:assert/strict";
 *
 * const echo = defineTool({
 *   name: "echo",
 *   title: "Echo",
 *   description: "Answer with the text given.",
 *   inputSchema: () => objectSchema({ text: z.string().describe("What to say.") }),
 *   outputSchema: () => objectSchema({ text: z.string() }),
 *   annotations: {
 *     readOnlyHint: true,
 *     destructiveHint: false,
 *     idempotentHint: true,
 *     openWorldHint: true,
 *   },
 *   run: ({ text }) => Promise.resolve({ structuredContent: { text }, text: [text] }),
 * });
 * assert.equal(echo.name, "echo");
 * assert.equal(echo.inputSchema, echo.inputSchema);
 * ```
 */
export function defineTool<Input extends z.ZodRawShape>(
  spec: ToolSpec<Input>,
): ToolDefinition<Input> {
  let input: z.ZodObject<Input> | undefined;
  let output: z.ZodObject | undefined;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    get inputSchema(): z.ZodObject<Input> {
      return input ??= spec.inputSchema();
    },
    get outputSchema(): z.ZodObject {
      return output ??= spec.outputSchema();
    },
    annotations: spec.annotations,
    run: spec.run,
  };
}

/**
 * The result of a call that changed nothing and needs only words.
 *
 * @param structuredContent The structured answer.
 * @param parts The text block's parts.
 * @returns The result.
 *
 * @example
 * ```ts
 * import { toolResult } from "./tool.ts";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(toolResult({ ok: true }, "Done.").text, ["Done."]);
 * ```
 */
export function toolResult(
  structuredContent: Record<string, unknown>,
  ...parts: TextPart[]
): ToolResult {
  return { structuredContent, text: parts };
}

/** Options for {@linkcode createToolContext}. */
export interface ToolContextOptions {
  /**
   * The calls have no session (the 2026-07-28 protocol era over HTTP): the
   * agent is the identity itself, the same for every call, so its last edit
   * is the identity's; the unnamed identity is one shared token whose
   * callers cannot be told apart, and undo asks them for `edit_id`.
   *
   * @default {false: the context is one agent (a session, a process)}
   */
  sessionless?: boolean;
}

/**
 * A fresh context for one agent on `backend`: its opened pads and count of
 * subscriptions and waits, its identity's pads and reads, the backend's
 * HTTP client and tokens.
 *
 * @param backend The process-wide state.
 * @param identity The identity of the agent's session (`""`: unnamed).
 * @param options Whether the calls have a session.
 * @returns The context; nothing to close (the backend owns the pads).
 *
 * @example Call a tool without an MCP server
 * ```ts
 * import { createBackend, loadConfig } from "@rustpad-mcp/server";
 * import { createToolContext } from "./tool.ts";
 * import { TOOLS } from "./mod.ts";
 * import { startPadServer } from "@rustpad-mcp/server/testing";
 * import assert from "node:assert/strict";
 *
 * await using pads = await startPadServer();
 * await using backend = createBackend(loadConfig({ RUSTPAD_URL: pads.url }));
 * const context = createToolContext(backend);
 * const signal = new AbortController().signal;
 * const read = await TOOLS.get_document.run({ id: "notes" }, context, { signal });
 * assert.equal(read.structuredContent.empty, true);
 * ```
 */
export function createToolContext(
  backend: Backend,
  identity: string = "",
  options: ToolContextOptions = {},
): ToolContext {
  const sessionless = options.sessionless === true;
  return {
    config: backend.config,
    backend,
    sessions: backend.pool(identity),
    http: backend.http,
    guard: backend.guard,
    readPads: backend.readPads(identity),
    // One agent for every call of a named identity; `identity:` keys never
    // collide with a UUID.
    agent: sessionless && identity !== ""
      ? `identity:${identity}`
      : crypto.randomUUID(),
    agentKnown: !sessionless || identity !== "",
    holds: new SessionHolds(),
    identity,
    openedPads: new OpenedPads(),
  };
}

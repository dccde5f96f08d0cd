// What differs between the two protocol eras, in one place. One factory
// (`buildServer` in server.ts) builds the SDK server for either, with the
// traits below; the SDK's serving entries pick the era from the client's
// first message (stdio, server.ts) or from each request (HTTP: the 2026
// leg is _http_modern.ts, the 2025 sessions _http_sessions.ts).
//
// - 2025-11-25 ("legacy"): `initialize` and a session; a person is asked
//   through an elicitation request the server sends; `resources/subscribe`;
//   the operator log as `notifications/message`.
// - 2026-07-28 ("modern"): no session; `server/discover`; protocol version
//   and client capabilities arrive in each request's `_meta`; a person is
//   asked through an `input_required` result whose sealed `requestState`
//   comes back with the answer; `subscriptions/listen`; caching hints on
//   what is the same for every caller.

// @ts-types="@modelcontextprotocol/server"
import {
  type CacheHint,
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  inputRequired,
  inputResponse,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import {
  ConfirmationGuard,
  type ElicitConfirm,
} from "../safety/confirmation.ts";
import type { Config } from "../config/config.ts";
import type { ToolResult } from "../tools/mod.ts";

/** A protocol era, as the SDK's serving entries name them. */
export type Era = "legacy" | "modern";

/** How long what every caller sees alike (the tool list) may be cached. */
const LIST_TTL_MS = 60 * 60 * 1000;
const SHARED: CacheHint = { ttlMs: LIST_TTL_MS, cacheScope: "public" };
/** The tool list differs by whether the client renders views (_app_view.ts). */
const PER_CLIENT: CacheHint = { ttlMs: LIST_TTL_MS, cacheScope: "private" };

/**
 * Caching hints of the 2026 era: the tool list, the resource template and
 * the server's description are fixed for the life of the process, the last
 * two the same for every caller (the list, for every caller alike in
 * whether it renders views); the pad list and pad text are neither, so they
 * keep the SDK's default (no caching).
 */
export const CACHE_HINTS = {
  "tools/list": PER_CLIENT,
  "resources/templates/list": SHARED,
  "server/discover": SHARED,
} as const;

/** What one era's server does its own way. */
export interface EraTraits {
  /** Whether the operator log reaches the client (`notifications/message`). */
  readonly logs: boolean;
  /** How a write asks a person. */
  confirmRoute(server: McpServer, config: Config): ConfirmRoute;
}

/**
 * The two eras. The 2026 era drops the log to the client (deprecated there,
 * and with no session there is no one to send it to between requests).
 */
export const ERAS: Readonly<Record<Era, EraTraits>> = {
  legacy: { logs: true, confirmRoute: (server) => dialogRoute(server) },
  modern: { logs: false, confirmRoute: (_, config) => resultRoute(config) },
};

/**
 * How one era asks a person to confirm a write: what a call gets to ask
 * with, and what goes back to the client instead of the tool's answer.
 */
export interface ConfirmRoute {
  /**
   * The dialog a call may open, and a confirm token the client's answer
   * carried (added to the arguments).
   */
  begin(
    ctx: ServerContext,
  ): {
    elicit: ElicitConfirm | undefined;
    token?: string | undefined;
    /** Whether this call can ask a person at all (see `ToolCall.asks`). */
    asks: boolean;
  };
  /** The result to send instead of `answer`, when the era asks by result. */
  finish(
    answer: ToolResult,
    ctx: ServerContext,
  ): CallToolResult | undefined;
}

/** How long a confirmation dialog may stay open: as long as a token lives. */
const CONFIRMATION_WAIT_MS = 10 * 60 * 1000;
/** The key of the confirmation in `inputRequests` and `inputResponses`. */
const CONFIRM_KEY = "confirm";
/** Where the token's instructions to an agent start, after the question. */
const TOKEN_INSTRUCTIONS = " Nothing has been changed yet.";

type FormSchema = ElicitRequestFormParams["requestedSchema"];
// The guard's type is exact; the SDK's is open to any field.
const CONFIRM_FORM = ConfirmationGuard
  .requestedSchema as unknown as FormSchema;

/** Whether `capabilities` take form elicitation (an empty one means form). */
function takesForms(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  return elicitation !== undefined &&
    (elicitation.form !== undefined || elicitation.url === undefined);
}

/**
 * The 2025 era: the server sends the client an elicitation request and
 * waits for the person's answer, when the client declared form elicitation;
 * the tools decide whether the configuration lets them use it.
 */
export function dialogRoute(server: McpServer): ConfirmRoute {
  return {
    begin: () => {
      const asks = takesForms(server.server.getClientCapabilities());
      return { elicit: asks ? askInDialog(server) : undefined, asks };
    },
    finish: () => undefined,
  };
}

function askInDialog(server: McpServer): ElicitConfirm {
  return async (message) => {
    let answer;
    try {
      answer = await server.server.elicitInput({
        mode: "form",
        message,
        requestedSchema: CONFIRM_FORM,
      }, { timeout: CONFIRMATION_WAIT_MS });
    } catch (error) {
      throw new Error(
        `Cannot confirm with a person as the confirmation dialog failed: ${
          (error as Error).message
        }. Nothing was changed`,
        { cause: error },
      );
    }
    return {
      action: answer.action,
      ...(answer.content !== undefined && { content: answer.content }),
    };
  };
}

/**
 * The 2026 era, which has no server-to-client requests: a write that needs
 * a person answers `input_required` with the question as an elicitation and,
 * as `requestState`, the confirm token the guard issued (sealed with
 * RUSTPAD_CONFIRM_SECRET, bound to the tool, the pad, the exact arguments,
 * the text the write would destroy and its revision). The client retries
 * with the person's answer and the state: an acceptance redeems the token,
 * once, through the used-token store every replica shares, so a replayed or
 * altered state is refused anywhere; any other answer declines. A client
 * that takes no forms gets the token itself, as in the 2025 era.
 */
export function resultRoute(config: Config): ConfirmRoute {
  return {
    begin(ctx) {
      const asks = config.elicitation && takesForms(clientCapabilities(ctx));
      const state = ctx.mcpReq.requestState();
      if (typeof state !== "string") return { elicit: undefined, asks };
      const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_KEY);
      if (
        answer.kind === "elicit" && answer.action === "accept" &&
        answer.content?.confirm === true
      ) {
        return { elicit: undefined, token: state, asks };
      }
      // Declined, cancelled or unanswered: the guard words the refusal.
      const action = answer.kind === "elicit" ? answer.action : "cancel";
      return { elicit: () => Promise.resolve({ action }), asks };
    },
    finish(answer, ctx): CallToolResult | undefined {
      const { status, confirm_token: token, message } =
        answer.structuredContent;
      if (
        status !== "confirmation_required" || typeof token !== "string" ||
        typeof message !== "string" || !config.elicitation ||
        !takesForms(clientCapabilities(ctx))
      ) {
        return undefined;
      }
      const question = message.split(TOKEN_INSTRUCTIONS)[0] ?? message;
      return inputRequired({
        inputRequests: {
          [CONFIRM_KEY]: inputRequired.elicit({
            mode: "form",
            message: question,
            requestedSchema: CONFIRM_FORM,
          }),
        },
        requestState: token,
      }) as unknown as CallToolResult;
    },
  };
}

/** The capabilities a 2026-era request declares in its `_meta`. */
function clientCapabilities(
  ctx: ServerContext,
): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as
    | ClientCapabilities
    | undefined;
}

/**
 * The capabilities the client declared: in the request's `_meta` (2026
 * era), else at `initialize` (2025 era).
 */
export function requestCapabilities(
  server: McpServer,
  ctx: ServerContext,
): ClientCapabilities | undefined {
  return clientCapabilities(ctx) ?? server.server.getClientCapabilities();
}

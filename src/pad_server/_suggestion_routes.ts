// The pad server's suggestion routes (see suggestion_desk.ts for the
// contract): a pad's list, and a person's decision on one, answered by the
// desk the server was given, or an empty list and 404 without one.

import type { SuggestionDesk, SuggestionList } from "./suggestion_desk.ts";

const JSON_TYPE = "application/json";

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": JSON_TYPE, "cache-control": "no-store" },
  });
}

/** `GET /api/suggestions/{id}`: the pad's suggestions now. */
export async function listSuggestions(
  desk: SuggestionDesk | undefined,
  padId: string,
): Promise<Response> {
  const none: SuggestionList = { revision: 0, suggestions: [], agentIds: [] };
  return json(200, desk === undefined ? none : await desk.list(padId));
}

/**
 * `POST /api/suggestions/{id}/{suggestion_id}`: accept or reject one, as
 * the person whose pad socket is `user_id` (their name is the one that
 * socket announced, never free text), or as "someone in the pad".
 */
export async function decideSuggestion(
  request: Request,
  desk: SuggestionDesk | undefined,
  padId: string,
  suggestionId: string,
  nameOf: (userId: number) => string | undefined,
): Promise<Response> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    body = undefined;
  }
  const { verdict, user_id: userId, ...rest } = (body ?? {}) as Record<
    string,
    unknown
  >;
  if (
    (verdict !== "accept" && verdict !== "reject") ||
    (userId !== undefined && !Number.isSafeInteger(userId)) ||
    Object.keys(rest).length > 0
  ) {
    return json(400, {
      error:
        `Cannot decide a suggestion as the body is not {"verdict": "accept" | "reject", "user_id"?: integer} (the name of who decides comes from their pad socket's user id, never from the body): current body is ${
          JSON.stringify(body) ?? "not JSON"
        }`,
    });
  }
  if (desk === undefined) {
    return json(404, {
      error:
        `Cannot decide suggestion ${suggestionId} as this pad server holds no suggestions: current desk is none`,
    });
  }
  const by = userId === undefined ? undefined : nameOf(userId as number);
  if (userId !== undefined && by === undefined) {
    return json(403, {
      error:
        `Cannot decide suggestion ${suggestionId} as user ${userId} is not in pad ${
          JSON.stringify(padId)
        } with a name: current people there do not include them. Open the pad's page and decide there`,
    });
  }
  const decision = await desk.decide(padId, suggestionId, verdict, by);
  if (decision.ok) return json(200, decision.suggestion);
  const { error, suggestion } = decision;
  return json(
    decision.kind === "missing" ? 404 : 409,
    suggestion === undefined ? { error } : { error, suggestion },
  );
}

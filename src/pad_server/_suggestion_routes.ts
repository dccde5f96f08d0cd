// The answers of our suggestions API (see suggestion_desk.ts for the
// contract): a pad's list, and a person's decision on one, from the desk
// the MCP server's backend attached, or an empty list without one.

import type { SuggestionDesk } from "./suggestion_desk.ts";

const JSON_TYPE = "application/json";
/** A decision's body is a verdict and a name: a few hundred bytes. */
const MAX_BODY_BYTES = 4096;
const MAX_NAME_LENGTH = 64;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": JSON_TYPE, "cache-control": "no-store" },
  });
}

/** `GET /api/suggestions/{id}`. */
export async function listResponse(
  desk: SuggestionDesk | undefined,
  padId: string,
): Promise<Response> {
  if (desk === undefined) {
    return json(200, { revision: 0, suggestions: [], agentIds: [] });
  }
  return json(200, await desk.list(padId));
}

/** `POST /api/suggestions/{id}/{suggestion_id}`. */
export async function decideResponse(
  desk: SuggestionDesk | undefined,
  request: Request,
  padId: string,
  suggestionId: string,
): Promise<Response> {
  const body = await readDecision(request);
  if (typeof body === "string") return json(400, { error: body });
  if (desk === undefined) {
    return json(404, {
      error:
        `Cannot decide suggestion "${suggestionId}" as this pad server holds no suggestions: current server runs without an MCP server (start it with rustpad-mcp --embedded)`,
    });
  }
  const decided = await desk.decide(padId, suggestionId, body.verdict, body.by);
  if (decided.ok) return json(200, decided.suggestion);
  return json(decided.kind === "missing" ? 404 : 409, {
    error: decided.error,
    ...(decided.suggestion !== undefined &&
      { suggestion: decided.suggestion }),
  });
}

/** The verdict and name of a decision's body, or why it is not one. */
async function readDecision(
  request: Request,
): Promise<{ verdict: "accept" | "reject"; by: string | undefined } | string> {
  const refused = (value: string) =>
    `Cannot read the decision as the body is not {"verdict": "accept" | "reject", "by"?: name of at most ${MAX_NAME_LENGTH} characters}: current body is ${value}`;
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) return refused(`${declared} bytes`);
  let body: unknown;
  try {
    const text = await request.text();
    if (text.length > MAX_BODY_BYTES) return refused(`${text.length} bytes`);
    body = JSON.parse(text);
  } catch {
    return refused("not JSON");
  }
  const { verdict, by } = (body ?? {}) as Record<string, unknown>;
  if (
    (verdict !== "accept" && verdict !== "reject") ||
    (by !== undefined &&
      (typeof by !== "string" || by.trim() === "" ||
        by.length > MAX_NAME_LENGTH))
  ) {
    return refused(JSON.stringify(body).slice(0, 120));
  }
  return { verdict, by: by === undefined ? undefined : by.trim() };
}

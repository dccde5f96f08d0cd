// The pad server's agent API (ours: a real Rustpad answers 404), for the
// agent processes that share the pad server: each request carries
// `Authorization: Bearer <agentSecret>`, so a web page or another local
// user cannot pose as an agent. See _agent_api.ts for the contract.

import { equalInConstantTime } from "../digest/mod.ts";
import { checkPadId } from "../rustpad/pad_id.ts";
import { TextOperation } from "../ot/operation.ts";
import type { HoldBody, SuggestionKeeper } from "./_suggestion_keeper.ts";

const AGENT_ROUTE =
  /^\/api\/agent\/(capabilities|suggestions|authors)(?:\/([^/]+))?(?:\/([^/]+))?$/;
/** The longest a long poll of the suggestions waits, in milliseconds. */
export const MAX_WAIT_MS = 25_000;
const MAX_TEXT = 200_000;

function json(status: number, body: unknown): Response {
  return new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json",
      "cache-control": "no-store",
    },
  });
}

const refused = (status: number, error: string) => json(status, { error });

/** Whether `given` is `secret`, compared in constant time. */
function sameSecret(given: string, secret: string): boolean {
  const encoder = new TextEncoder();
  return equalInConstantTime(encoder.encode(given), encoder.encode(secret));
}

/**
 * Answer `request` if it is an agent API route, else `undefined`. Without
 * a secret the API is off and its routes are not found, as on Rustpad.
 */
export function serveAgent(
  request: Request,
  keeper: SuggestionKeeper,
  secret: string,
): Promise<Response> | undefined {
  const url = new URL(request.url);
  const match = AGENT_ROUTE.exec(url.pathname);
  if (match === null) return undefined;
  const auth = request.headers.get("authorization") ?? "";
  if (!auth.startsWith("Bearer ") || !sameSecret(auth.slice(7), secret)) {
    return Promise.resolve(refused(
      401,
      "Cannot use the pad server's agent API as the request carries no agent secret or a wrong one: current Authorization header is not the pad server's secret; give agents the secret of agent.secret (RUSTPAD_AGENT_SECRET)",
    ));
  }
  const [, what, rawPad, rawId] = match;
  if (what === "capabilities") {
    return Promise.resolve(
      json(200, { suggestions: true, authors: true, version: 1 }),
    );
  }
  let pad: string;
  let id: string | undefined;
  try {
    pad = checkPadId(decodeURIComponent(rawPad ?? ""));
    id = rawId === undefined ? undefined : decodeURIComponent(rawId);
  } catch (error) {
    return Promise.resolve(refused(400, (error as Error).message));
  }
  if (what === "authors") return authors(request, keeper, pad);
  if (request.method === "GET" && id === undefined) {
    return poll(url, keeper, pad, request.signal);
  }
  if (request.method === "POST") return change(request, keeper, pad, id);
  return Promise.resolve(
    refused(
      405,
      `Cannot ${request.method} ${url.pathname} as the agent API does not take it: current methods are GET and POST`,
    ),
  );
}

/** `GET /api/agent/suggestions/{pad}?since=N&wait=MS`: a long poll. */
async function poll(
  url: URL,
  keeper: SuggestionKeeper,
  pad: string,
  signal: AbortSignal,
): Promise<Response> {
  const since = Number(url.searchParams.get("since") ?? -1);
  const wait = Math.min(Number(url.searchParams.get("wait") ?? 0), MAX_WAIT_MS);
  if (Number.isFinite(since) && wait > 0 && keeper.changes(pad) === since) {
    await new Promise<void>((resolve) => {
      const done = () => {
        stop();
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const stop = keeper.watch(pad, done);
      const timer = setTimeout(done, wait);
      signal.addEventListener("abort", done);
    });
  }
  const changes = keeper.changes(pad);
  return json(200, { changes, ...keeper.entries(pad) });
}

/** Read a JSON object body, or the refusal. */
async function bodyOf(
  request: Request,
): Promise<Record<string, unknown> | Response> {
  try {
    const body = await request.json();
    if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      return body as Record<string, unknown>;
    }
  } catch {
    // Answered below.
  }
  return refused(
    400,
    "Cannot read the request as its body is not a JSON object: current body is not one",
  );
}

/** `POST .../suggestions/{pad}`: hold; `.../{pad}/{id}`: decide or withdraw. */
async function change(
  request: Request,
  keeper: SuggestionKeeper,
  pad: string,
  id: string | undefined,
): Promise<Response> {
  const body = await bodyOf(request);
  if (body instanceof Response) return body;
  if (id === undefined) {
    const hold = holdOf(body);
    if (typeof hold === "string") return refused(400, hold);
    const held = keeper.hold(pad, hold);
    if ("error" in held) return refused(held.status, held.error);
    const { epoch: _epoch, ...record } = held;
    return json(201, record);
  }
  const { action, agent, verdict, by } = body;
  const decision = action === "withdraw" && typeof agent === "string"
    ? keeper.withdraw(pad, id, agent)
    : action === "decide" && (verdict === "accept" || verdict === "reject") &&
        (by === undefined || typeof by === "string")
    ? keeper.decide(pad, id, verdict, by)
    : undefined;
  if (decision === undefined) {
    return refused(
      400,
      `Cannot change suggestion ${id} as the body is not {"action": "withdraw", "agent"} or {"action": "decide", "verdict": "accept" | "reject", "by"?}: current action is ${
        JSON.stringify(action) ?? "missing"
      }`,
    );
  }
  if (decision.ok) return json(200, decision.suggestion);
  return json(decision.kind === "missing" ? 404 : 409, decision);
}

/** The hold request of `body`, or why it is not one. */
function holdOf(body: Record<string, unknown>): HoldBody | string {
  const text = (value: unknown, max: number) =>
    typeof value === "string" && value.length <= max;
  const count = (value: unknown) =>
    typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
  const author = body.author as Record<string, unknown> | undefined;
  const fields: [string, boolean][] = [
    ["identity", text(body.identity, 64)],
    ["agent", text(body.agent, 200)],
    ["author.name", text(author?.name, 256)],
    ["author.hue", count(author?.hue)],
    ["summary", text(body.summary, 1000)],
    ["revision", count(body.revision)],
    ["diff", typeof body.diff === "string"],
    ["language", body.language === undefined || text(body.language, MAX_TEXT)],
    ["ttlMs", count(body.ttlMs) && (body.ttlMs as number) > 0],
    ["identities", count(body.identities) && (body.identities as number) > 0],
  ];
  const wrong = fields.find(([, ok]) => !ok);
  if (wrong !== undefined) {
    return `Cannot hold a suggestion as its field ${
      wrong[0]
    } is missing or out of range: current value is ${
      JSON.stringify(wrong[0].startsWith("author.") ? author : body[wrong[0]])
        ?.slice(0, 100) ?? "missing"
    }`;
  }
  try {
    TextOperation.fromJSON(body.operation);
  } catch (error) {
    return `Cannot hold a suggestion as its operation is not one: ${
      (error as Error).message
    }`;
  }
  return body as unknown as HoldBody;
}

/** `GET` or `POST /api/agent/authors/{pad}`. */
async function authors(
  request: Request,
  keeper: SuggestionKeeper,
  pad: string,
): Promise<Response> {
  if (request.method === "GET") {
    return json(200, { authors: keeper.authors(pad) });
  }
  const body = await bodyOf(request);
  if (body instanceof Response) return body;
  const { userId, name, identity } = body;
  if (
    typeof userId !== "number" || !Number.isSafeInteger(userId) ||
    userId < 0 || typeof name !== "string" || name.length > 256 ||
    typeof identity !== "string" || identity.length > 64
  ) {
    return refused(
      400,
      `Cannot record an author as the body is not {"userId", "name", "identity"}: current body is ${
        JSON.stringify(body).slice(0, 200)
      }`,
    );
  }
  keeper.putAuthor(pad, { userId, name, identity, agent: true });
  return json(204, null);
}

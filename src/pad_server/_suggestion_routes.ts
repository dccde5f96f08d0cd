// The pad server's suggestion routes for people (see suggestion_desk.ts for
// the contract): a pad's bounded list, one suggestion whole, the list
// pushed as server-sent events, and a person's decision on one, answered
// by the desk the server has, or an empty list and 404 without one.

import { checkPadId } from "../rustpad/pad_id.ts";
import { boundedView } from "../rustpad/suggestion_views.ts";
import type { SuggestionDesk, SuggestionList } from "./suggestion_desk.ts";

const JSON_TYPE = "application/json";
const ROUTE = /^\/api\/(suggestions|suggestion-events)\/([^/]+)(?:\/([^/]+))?$/;
const NONE: SuggestionList = { revision: 0, suggestions: [], agentIds: [] };
/** How often a stream looks again (a desk that cannot be watched, expiry). */
const LOOK_MS = 1000;
/** Changes closer than this are sent as one event. */
const COALESCE_MS = 100;
/** The most event streams open at once on one server. */
export const MAX_STREAMS = 512;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": JSON_TYPE, "cache-control": "no-store" },
  });
}

/** The desk's list with every entry bounded, whatever desk it is. */
async function boundedList(
  desk: SuggestionDesk | undefined,
  padId: string,
): Promise<SuggestionList> {
  if (desk === undefined) return NONE;
  const list = await desk.list(padId);
  return { ...list, suggestions: list.suggestions.map(boundedView) };
}

/** The open event streams of one server. */
export class SuggestionStreams {
  #open = 0;

  /**
   * Answer `request` if it is a people's suggestion route, else
   * `undefined`.
   */
  serve(
    request: Request,
    desk: SuggestionDesk | undefined,
    nameOf: (padId: string, userId: number) => string | undefined,
  ): Promise<Response> | undefined {
    const match = ROUTE.exec(new URL(request.url).pathname);
    if (match === null) return undefined;
    const [, kind, rawPad, rawId] = match;
    let padId: string;
    let id: string | undefined;
    try {
      padId = checkPadId(decodeURIComponent(rawPad!));
      id = rawId === undefined ? undefined : decodeURIComponent(rawId);
    } catch (error) {
      return Promise.resolve(json(400, { error: (error as Error).message }));
    }
    const get = request.method === "GET";
    if (kind === "suggestion-events" && get && id === undefined) {
      return Promise.resolve(this.#stream(request, desk, padId));
    }
    if (kind !== "suggestions") return undefined;
    if (get && id === undefined) {
      return boundedList(desk, padId).then((list) => json(200, list));
    }
    if (get) return whole(desk, padId, id!);
    if (request.method === "POST" && id !== undefined) {
      return decideSuggestion(
        request,
        desk,
        padId,
        id,
        (userId) => nameOf(padId, userId),
      );
    }
    return undefined;
  }

  #stream(
    request: Request,
    desk: SuggestionDesk | undefined,
    padId: string,
  ): Response {
    if (this.#open >= MAX_STREAMS) {
      return json(503, {
        error:
          `Cannot open a suggestion stream as ${MAX_STREAMS} are open on this pad server: current count is ${this.#open}; read GET /api/suggestions/${padId} instead`,
      });
    }
    this.#open++;
    const encoder = new TextEncoder();
    let stop = () => {};
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        let last = "";
        let timer: ReturnType<typeof setTimeout> | undefined;
        let ended = false;
        const send = async () => {
          timer = undefined;
          const list = JSON.stringify(await boundedList(desk, padId));
          if (ended || list === last) return;
          last = list;
          controller.enqueue(encoder.encode(`event: list\ndata: ${list}\n\n`));
        };
        const soon = () => {
          timer ??= setTimeout(() => void send().catch(() => {}), COALESCE_MS);
        };
        const unwatch = desk?.watch?.(padId, soon);
        const look = setInterval(soon, LOOK_MS);
        stop = () => {
          if (ended) return;
          ended = true;
          this.#open--;
          unwatch?.();
          clearInterval(look);
          clearTimeout(timer);
        };
        request.signal.addEventListener("abort", () => {
          stop();
          try {
            controller.close();
          } catch {
            // Already closed.
          }
        });
        void send().catch(() => {});
      },
      cancel: () => stop(),
    });
    return new Response(body, {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
      },
    });
  }
}

/** `GET /api/suggestions/{id}/{suggestion_id}`: one whole. */
async function whole(
  desk: SuggestionDesk | undefined,
  padId: string,
  id: string,
): Promise<Response> {
  const found = desk?.whole !== undefined
    ? await desk.whole(padId, id)
    : (await desk?.list(padId))?.suggestions.find((s) => s.id === id);
  return found === undefined
    ? json(404, {
      error:
        `Cannot show suggestion ${id} as pad "${padId}" has no such suggestion: current suggestions are listed by GET /api/suggestions/${
          encodeURIComponent(padId)
        }`,
    })
    : json(200, found);
}

/**
 * `POST /api/suggestions/{id}/{suggestion_id}`: accept or reject one, as
 * the person whose pad socket is `user_id` (their name is the one that
 * socket announced, never free text), or as "someone in the pad".
 */
async function decideSuggestion(
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

// What one HTTP request (a batch included) may answer: a small request can
// ask for a large answer (100 reads of a full pad in one 12 KB batch came to
// 315 MB), all of it held in memory until the client reads it. Each request
// gets a budget of answer characters; an answer past it is replaced by an
// error naming the bound, and the answers before it stand.

/** The budget of each request, found from the request the SDK hands on. */
const budgets = new WeakMap<Request, AnswerBudget>();

/** How much one request may still answer. */
export class AnswerBudget {
  readonly #limit: number;
  #left: number;

  /** A budget of `limit` characters of JSON. */
  constructor(limit: number) {
    this.#limit = limit;
    this.#left = limit;
  }

  /** The budget attached to `request`, if any (HTTP only). */
  static of(request: Request | undefined): AnswerBudget | undefined {
    return request === undefined ? undefined : budgets.get(request);
  }

  /** Attach this budget to `request`; returns the request. */
  attach(request: Request): Request {
    budgets.set(request, this);
    return request;
  }

  /**
   * Take `answer`'s size from the budget; returns the refusal instead when
   * it does not fit (and takes nothing).
   */
  take(answer: unknown, what: string): string | undefined {
    const size = JSON.stringify(answer)?.length ?? 0;
    if (size <= this.#left) {
      this.#left -= size;
      return undefined;
    }
    const bound = this.#limit >= 1024 * 1024
      ? `${Math.round(this.#limit / (1024 * 1024))} MiB`
      : `${Math.round(this.#limit / 1024)} KiB`;
    return `Cannot answer ${what} as this HTTP request's answers would pass ${bound}, the most one request may answer (4 × RUSTPAD_MCP_MAX_MESSAGE_BYTES): current answer is ${size} characters with ${this.#left} left; send fewer calls per request, or read less at once (get_document with limit, read_lines)`;
  }
}

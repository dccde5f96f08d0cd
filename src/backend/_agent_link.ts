// The agent side's link to the pad server's agent API (ours: a real
// Rustpad answers 404): the secret, the capability probe that chooses
// where suggestions and authors live, and the requests.

/** The variables that name the secret (see `src/config/`). */
export const AGENT_SECRET_VARIABLE = "RUSTPAD_AGENT_SECRET";
export const AGENT_SECRET_FILE_VARIABLE = "RUSTPAD_AGENT_SECRET_FILE";

/**
 * The agent secret the configuration names: `RUSTPAD_AGENT_SECRET`, else
 * the first line of the file `RUSTPAD_AGENT_SECRET_FILE` names, else
 * `undefined`.
 *
 * @throws {Error} If the file is named but cannot be read.
 */
export function configuredAgentSecret(
  config: {
    agentSecretText: string | undefined;
    agentSecretFile: string | undefined;
  },
): string | undefined {
  if (config.agentSecretText) return config.agentSecretText;
  const path = config.agentSecretFile;
  if (!path) return undefined;
  try {
    return Deno.readTextFileSync(path).split("\n")[0]!.trim();
  } catch (error) {
    throw new Error(
      `Cannot read the agent secret as ${AGENT_SECRET_FILE_VARIABLE} names a file that cannot be read: current error is ${
        (error as Error).message
      }; point it at the pad server's agent.secret`,
    );
  }
}

/** A failed agent API request: its status and the pad server's sentence. */
export class AgentApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Requests to one pad server's agent API. */
export class AgentLink {
  readonly #base: URL;
  readonly #secret: string | undefined;
  readonly #timeoutMs: number;

  /**
   * @param base The pad server.
   * @param secret Its agent secret; without one, only the probe is sent,
   * to tell a pad server that keeps suggestions from one that does not.
   */
  constructor(base: URL, secret: string | undefined, timeoutMs: number) {
    this.#base = base;
    this.#secret = secret;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Whether the pad server offers the agent API: `true` for 200, `false`
   * for 404 (a real Rustpad).
   *
   * @throws {AgentApiError} If it refuses the secret or fails otherwise.
   */
  async offered(): Promise<boolean> {
    const response = await this.#send("GET", "capabilities");
    if (response.status === 404) {
      await response.body?.cancel();
      return false;
    }
    if (this.#secret === undefined) {
      await response.body?.cancel();
      throw new AgentApiError(
        response.status,
        `Cannot keep suggestions as the pad server keeps them for its agents and this one has no agent secret: current ${AGENT_SECRET_VARIABLE} and ${AGENT_SECRET_FILE_VARIABLE} are unset; set ${AGENT_SECRET_FILE_VARIABLE} to the pad server's agent.secret`,
      );
    }
    await this.#answer(response);
    return true;
  }

  /**
   * `GET` a path of the agent API (or of the people's, when `people`),
   * waiting up to `waitMs` more than the timeout, until `signal` aborts.
   */
  async get<T>(
    path: string,
    options: { waitMs?: number; people?: boolean; signal?: AbortSignal } = {},
  ): Promise<T> {
    return await this.#answer(
      await this.#send("GET", path, undefined, options),
    ) as T;
  }

  /** `POST` `body` to a path of the agent API. */
  async post<T>(path: string, body: unknown): Promise<T> {
    return await this.#answer(await this.#send("POST", path, body)) as T;
  }

  /** The response of a decision: 200, 404 and 409 all carry one. */
  async decision<T>(path: string, body: unknown): Promise<T> {
    const response = await this.#send("POST", path, body);
    if ([200, 404, 409].includes(response.status)) {
      return await response.json() as T;
    }
    return await this.#answer(response) as T;
  }

  async #send(
    method: string,
    path: string,
    body?: unknown,
    options: { waitMs?: number; people?: boolean; signal?: AbortSignal } = {},
  ): Promise<Response> {
    const url = new URL(
      `api/${options.people ? "" : "agent/"}${path}`,
      this.#base,
    );
    const timeout = AbortSignal.timeout(
      this.#timeoutMs + (options.waitMs ?? 0),
    );
    try {
      return await fetch(url, {
        method,
        headers: {
          ...(this.#secret !== undefined &&
            { authorization: `Bearer ${this.#secret}` }),
          ...(body !== undefined && { "content-type": "application/json" }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: options.signal === undefined
          ? timeout
          : AbortSignal.any([timeout, options.signal]),
      });
    } catch (error) {
      throw new AgentApiError(
        0,
        `Cannot reach the pad server's agent API at ${url.origin} as the request failed: ${
          (error as Error).message
        }`,
      );
    }
  }

  async #answer(response: Response): Promise<unknown> {
    const text = await response.text();
    let body: unknown;
    try {
      body = text === "" ? null : JSON.parse(text);
    } catch {
      body = { error: text.slice(0, 500) };
    }
    if (response.ok) return body;
    const error = (body as { error?: unknown } | null)?.error;
    throw new AgentApiError(
      response.status,
      typeof error === "string"
        ? error
        : `Cannot use the pad server's agent API as it answered ${response.status}: current body is ${
          text.slice(0, 200)
        }`,
    );
  }
}

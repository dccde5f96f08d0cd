/**
 * Whether the Rustpad server answers, as `/healthz` reports it: the answer
 * of the last probe (`GET /api/stats`), refreshed in the background at most
 * once per {@linkcode UPSTREAM_PROBE_MS}, so however often a load balancer
 * asks, Rustpad sees one request per interval and no probe waits on it.
 *
 * @module
 */

/** How long a probe's answer stands before the next ask refreshes it. */
export const UPSTREAM_PROBE_MS = 10_000;

/** What the last probe found: `unknown` until the first one ends. */
export type UpstreamStatus = "ok" | "unreachable" | "unknown";

/**
 * The cached answer of a probe.
 *
 * @example
 * ```ts
 * import { UpstreamHealth } from "./upstream_health.ts";
 * import assert from "node:assert/strict";
 *
 * let probes = 0;
 * const health = new UpstreamHealth(() => {
 *   probes++;
 *   return Promise.resolve();
 * });
 * assert.equal(health.status(), "unknown");
 * await health.settled;
 * assert.equal(health.status(), "ok");
 * assert.equal(probes, 1);
 * ```
 */
export class UpstreamHealth {
  readonly #probe: () => Promise<unknown>;
  readonly #intervalMs: number;
  readonly #now: () => number;
  #status: UpstreamStatus = "unknown";
  #checkedAt = -Infinity;
  #running: Promise<void> | undefined;

  /**
   * Make the cache; nothing is probed until the first ask.
   *
   * @param probe Resolves if the server answers, rejects if not.
   * @param options How long an answer stands, and the clock.
   */
  constructor(
    probe: () => Promise<unknown>,
    options: { intervalMs?: number; now?: () => number } = {},
  ) {
    this.#probe = probe;
    this.#intervalMs = options.intervalMs ?? UPSTREAM_PROBE_MS;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The last probe's answer; starts a probe in the background if that
   * answer is older than the interval and none is running.
   *
   * @returns The status now.
   */
  status(): UpstreamStatus {
    if (
      this.#running === undefined &&
      this.#now() - this.#checkedAt >= this.#intervalMs
    ) {
      this.#checkedAt = this.#now();
      this.#running = this.#probe().then(
        () => void (this.#status = "ok"),
        () => void (this.#status = "unreachable"),
      ).finally(() => this.#running = undefined);
    }
    return this.#status;
  }

  /** Settles when the probe running now (if any) has its answer. */
  get settled(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }
}

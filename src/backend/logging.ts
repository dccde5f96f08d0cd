/**
 * What an operator wants to know, as MCP log messages: connections to pads
 * lost and regained, edits refused, confirmations asked. One
 * {@linkcode OperatorLog} serves every MCP session of the process; each
 * session is a {@linkcode LogSink} with its own level (`logging/setLevel`).
 * Messages go out as `notifications/message`, never to stdout.
 *
 * @module
 */

/** A message's severity, as MCP's `logging/setLevel` names them. */
export type LogLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

const SEVERITY: Readonly<Record<LogLevel, number>> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

/**
 * The level a session gets before it sets one: only what needs attention,
 * so a client that never asked is not flooded.
 */
export const DEFAULT_LOG_LEVEL: LogLevel = "warning";

/** The `logger` name on every message. */
export const LOGGER_NAME = "rustpad-mcp";

/** One message, as `notifications/message` carries it. */
export interface LogMessage {
  /** Its severity. */
  level: LogLevel;
  /** Always {@linkcode LOGGER_NAME}. */
  logger: string;
  /** `message` (one sentence) and structured fields such as `pad`. */
  data: Record<string, unknown>;
}

/** Where messages go: one MCP session. */
export interface LogSink {
  /** Deliver one message; may reject if the session is gone. */
  send(message: LogMessage): Promise<void>;
}

/**
 * Sends log messages to every attached sink, each filtered by its level.
 *
 * @example A sink that set level info hears info, not debug
 * ```ts
 * import { type LogMessage, OperatorLog } from "./logging.ts";
 * import assert from "node:assert/strict";
 *
 * const log = new OperatorLog();
 * const seen: LogMessage[] = [];
 * const sink = { send: async (message: LogMessage) => void seen.push(message) };
 * log.attach(sink);
 * log.setLevel(sink, "info");
 * await log.send("debug", "Opened pad \"notes\"");
 * await log.send("info", "Reconnected to pad \"notes\"", { pad: "notes" });
 * assert.deepEqual(seen.map((message) => message.data), [
 *   { message: "Reconnected to pad \"notes\"", pad: "notes" },
 * ]);
 * ```
 */
export class OperatorLog {
  #levels = new Map<LogSink, LogLevel>();
  #follows = new Map<LogSink, (pad: string) => boolean>();

  /**
   * Send messages to `sink`, at {@linkcode DEFAULT_LOG_LEVEL} and above
   * until its level is set, until the returned function is called.
   *
   * @param sink The session's sink.
   * @param follows Whether a message about a pad (its `pad` field) is for
   * this sink: a session hears only of the pads it opened itself. Messages
   * about no pad go to every sink.
   * @returns Stops sending to it.
   */
  attach(
    sink: LogSink,
    follows: (pad: string) => boolean = () => true,
  ): () => void {
    this.#levels.set(sink, DEFAULT_LOG_LEVEL);
    this.#follows.set(sink, follows);
    return () => {
      this.#levels.delete(sink);
      this.#follows.delete(sink);
    };
  }

  /**
   * Set the least severe level `sink` receives (its `logging/setLevel`).
   *
   * @param sink An attached sink; others are ignored.
   * @param level The level.
   */
  setLevel(sink: LogSink, level: LogLevel): void {
    if (this.#levels.has(sink)) this.#levels.set(sink, level);
  }

  /** How many sinks receive messages. */
  get attached(): number {
    return this.#levels.size;
  }

  /**
   * Send one message to every sink whose level lets it through. Never
   * throws: a session that went away just misses it.
   *
   * @param level The message's severity.
   * @param message One sentence for a person.
   * @param details Structured fields, such as the pad id.
   * @returns When every send settled.
   */
  async send(
    level: LogLevel,
    message: string,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    const sends: Promise<void>[] = [];
    const pad = details.pad;
    for (const [sink, minimum] of this.#levels) {
      if (SEVERITY[level] < SEVERITY[minimum]) continue;
      if (typeof pad === "string" && !this.#follows.get(sink)?.(pad)) continue;
      sends.push(
        sink.send({
          level,
          logger: LOGGER_NAME,
          data: { message, ...details },
        }).catch(() => {}),
      );
    }
    await Promise.all(sends);
  }
}

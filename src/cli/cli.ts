/**
 * The command-line entry: flags, configuration from the environment, and
 * the MCP server on stdio until the client closes stdin, or over HTTP with
 * `--http [HOST:]PORT` until SIGTERM or SIGINT. Stdout carries only
 * the protocol; everything else goes to stderr.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createBackend } from "../backend/backend.ts";
import { openConfiguredState } from "./_state.ts";
import { configure, embeddedFlagArgs, waitsForRestarts } from "./_embedded.ts";
import { isLoopback, MIN_TOKEN_LENGTH, parseListen } from "../config/listen.ts";
import { usage } from "../config/usage.ts";
import { serveStdio } from "../mcp/stdio.ts";
import { VERSION } from "../config/version.ts";

/** Exit code for a bad flag or configuration value. */
const USAGE_EXIT_CODE = 2;
const PUBLIC_DEFAULT_NOTE =
  "rustpad-mcp: RUSTPAD_URL is not set: using the public server https://rustpad.io/, where anyone who learns a pad's id reads it; set RUSTPAD_URL for your own server, or use --embedded for pads on this machine";

/**
 * Run the CLI: `--help`, `--version`, `--http [HOST:]PORT` (serve MCP over
 * Streamable HTTP until SIGTERM or SIGINT), or serve MCP over stdio until
 * stdin closes; `--embedded [[HOST:]PORT]` (or `RUSTPAD_URL=embedded`)
 * joins the compatible pad server, with its web editor, starting it as a
 * process of its own on first use. `pad-server ...` runs that pad server
 * (see `pad_server_main.ts`).
 *
 * @param args The command-line arguments, without the program.
 * @returns The process exit code.
 *
 * @example
 * ```ts ignore
 * import { main } from "@rustpad-mcp/server";
 *
 * Deno.exit(await main(Deno.args));
 * ```
 */
export async function main(args: string[]): Promise<number> {
  if (args[0] === "pad-server") {
    // Loaded only for the subcommand: an agent's start needs none of it.
    const { padServerMain } = await import("./pad_server_main.ts");
    return await padServerMain(args.slice(1));
  }
  let flags: {
    help?: boolean | undefined;
    version?: boolean | undefined;
    http?: string | undefined;
    embedded?: string | undefined;
  };
  try {
    flags = parseArgs({
      args: embeddedFlagArgs(args),
      options: {
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "V" },
        http: { type: "string" },
        embedded: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    console.error(
      `rustpad-mcp: ${
        (error as Error).message
      }; see --help (configuration is by environment variables)`,
    );
    return USAGE_EXIT_CODE;
  }
  if (flags.help) {
    // Not serving MCP, so stdout is free for the usage text.
    await writeStdout(usage(VERSION));
    return 0;
  }
  if (flags.version) {
    await writeStdout(`rustpad-mcp ${VERSION}\n`);
    return 0;
  }

  const httpListen = flags.http === undefined
    ? undefined
    : parseListen(flags.http);
  if (flags.http !== undefined && httpListen === undefined) {
    console.error(
      `rustpad-mcp: --http ${
        JSON.stringify(flags.http)
      } is not accepted: expected [HOST:]PORT such as 8080 or 0.0.0.0:8080`,
    );
    return USAGE_EXIT_CODE;
  }
  // Refused before anything starts (the embedded pad server included).
  const tokenless = tokenlessPublicListen(httpListen);
  if (tokenless !== undefined) {
    console.error(`rustpad-mcp: ${tokenless}`);
    return USAGE_EXIT_CODE;
  }

  const configured = await configure(flags.embedded);
  if (typeof configured === "number") return configured;
  const { config } = configured;
  // Stops watching the embedded pad server, if any, however main returns;
  // the pad server goes on.
  await using _embedded = configured.embedded;

  const listen = httpListen ?? config.listen;
  // Said once serving starts, after every refusal that could come first.
  const notes = configured.publicDefault ? [PUBLIC_DEFAULT_NOTE] : [];
  if (listen !== undefined) {
    // Loaded only for --http: a stdio start needs no HTTP server.
    const { runHttp } = await import("./_http_main.ts");
    return await runHttp(config, listen, notes, configured.embedded);
  }
  for (const note of notes) console.error(note);
  if (Deno.stdin.isTerminal()) {
    // Someone ran it by hand (deno task start): say what it waits for.
    console.error(
      "rustpad-mcp: this is an MCP server on stdio: it waits for an MCP client to talk to it on stdin; add it to a client (see README), or try deno task demo. Ctrl-D or Ctrl-C stops it",
    );
  }
  // RUSTPAD_STATE_URL unreachable: exit code 2 and one line, as --http.
  const state = await openConfiguredState(
    config,
    (line) => console.error(line),
  );
  if (typeof state === "number") return state;
  try {
    await using backend = createBackend(config, {
      state,
      ...waitsForRestarts(configured.embedded),
    });
    return await serveStdio(config, backend);
  } finally {
    await state.close();
  }
}

/**
 * Why serving HTTP on `listen` cannot start, when it is off loopback and
 * the environment names no bearer token; `undefined` when it can. Said
 * before the embedded pad server starts (the HTTP server checks the bound
 * address again).
 */
function tokenlessPublicListen(
  listen: { hostname: string; port: number } | undefined,
): string | undefined {
  const env = (name: string) => Deno.env.get(name)?.trim() || undefined;
  const listening = listen ??
    (env("RUSTPAD_MCP_LISTEN") === undefined
      ? undefined
      : parseListen(env("RUSTPAD_MCP_LISTEN")!));
  if (
    listening === undefined || isLoopback(listening.hostname) ||
    env("RUSTPAD_MCP_TOKEN") !== undefined ||
    env("RUSTPAD_MCP_TOKENS") !== undefined
  ) {
    return undefined;
  }
  return `Cannot serve HTTP on ${listening.hostname} without a token as anyone who can reach it could edit pads: set RUSTPAD_MCP_TOKEN (at least ${MIN_TOKEN_LENGTH} characters) or RUSTPAD_MCP_TOKENS, or listen on 127.0.0.1`;
}

async function writeStdout(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) {
    written += await Deno.stdout.write(bytes.subarray(written));
  }
}

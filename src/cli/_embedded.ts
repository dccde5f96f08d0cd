// The MCP server beside its own pad server: `--embedded [[HOST:]PORT]` or
// RUSTPAD_URL=embedded join the pad server of the user's pads (a process of
// its own, see pad_server_main.ts), starting it on first use on
// 127.0.0.1:3030 by default (see _pad_server_join.ts), point the tools at
// it, and print the editor's URL on stderr. The pad server outlives the
// agent: people keep their pages while no agent runs. Pad ids are the pads'
// only access control, so anything but loopback needs
// RUSTPAD_EMBEDDED_PUBLIC=true.

import {
  type Config,
  CONFIG_VARIABLES,
  ConfigError,
  loadConfig,
} from "../config/mod.ts";

import type { EmbeddedPads } from "./_embedded_start.ts";

export type { EmbeddedPads } from "./_embedded_start.ts";

/**
 * The backend options that make a call opening a pad wait while the
 * embedded pad server is started again, instead of failing at once.
 */
export function waitsForRestarts(
  embedded: EmbeddedPads | undefined,
): { upstreamBack?: () => Promise<boolean> } {
  return embedded === undefined ? {} : { upstreamBack: embedded.whenBack };
}

/** Exit code for a bad flag or configuration value. */
const USAGE_EXIT_CODE = 2;

/**
 * The configuration, the embedded pad server if any, and whether
 * RUSTPAD_URL took its default, the public rustpad.io.
 */
export interface Configured {
  readonly config: Config;
  readonly embedded: EmbeddedPads | undefined;
  readonly publicDefault: boolean;
}

/**
 * `--embedded` may stand alone: give parseArgs an empty value for it then,
 * so `--embedded` and `--embedded 8080` both parse.
 */
export function embeddedFlagArgs(args: readonly string[]): string[] {
  return args.map((arg, i) => {
    const next = args[i + 1];
    return arg === "--embedded" && (next === undefined || next.startsWith("-"))
      ? "--embedded="
      : arg;
  });
}

/**
 * The configuration, with the embedded pad server joined (or started)
 * first when the flag or RUSTPAD_URL=embedded asks for it; or the exit
 * code after the lines on stderr.
 */
export async function configure(
  flag: string | undefined,
): Promise<Configured | number> {
  const env: Record<string, string | undefined> = {};
  for (const { name } of CONFIG_VARIABLES) env[name] = Deno.env.get(name);
  const wanted = flag ??
    (env.RUSTPAD_URL?.trim().toLowerCase() === "embedded" ? "" : undefined);
  let config: Config;
  try {
    // The pad server's URL is known only once it is joined.
    if (wanted !== undefined) env.RUSTPAD_URL = "http://127.0.0.1/";
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`rustpad-mcp: ${error.message}`);
    return USAGE_EXIT_CODE;
  }
  if (wanted === undefined) {
    return {
      config,
      embedded: undefined,
      publicDefault: !env.RUSTPAD_URL?.trim(),
    };
  }
  const { startEmbedded } = await import("./_embedded_start.ts");
  const joined = await startEmbedded(wanted, config);
  if (typeof joined === "number") return joined;
  const { embedded, secret } = joined;
  return {
    config: {
      ...config,
      rustpadUrl: embedded.url,
      embedded: true,
      ...secret !== undefined && { agentSecret: secret },
    },
    embedded,
    publicDefault: false,
  };
}

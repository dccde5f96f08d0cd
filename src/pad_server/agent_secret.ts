/**
 * The secret by which agents prove to a pad server that they are agents:
 * a file `agent.secret` in the pad server's data directory, readable only
 * by its owner (mode 0600), holding 43 characters of base64url (32 random
 * bytes) and nothing else. The pad server makes it when it starts; an
 * agent process of the same user reads it and presents it as
 * `Authorization: Bearer <secret>` when it opens a pad socket, and the pad
 * server marks that connection as an agent in the `UserInfo` it sends to
 * the page. A web page, or another local user, cannot read the file, so
 * cannot pose as an agent.
 *
 * @module
 */

import { equalInConstantTime } from "../digest/mod.ts";

/** The secret's file name in the pad server's data directory. */
export const AGENT_SECRET_FILE = "agent.secret";

/** A secret as the file holds it: 32 bytes in base64url, no padding. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The agent secret of the data directory `folder`, made there (the folder
 * too, if missing) when it has none. Two processes making it at once end
 * with one secret: it is written aside and linked into place, so a reader
 * never sees half of it.
 *
 * @param folder The pad server's data directory.
 * @returns The secret: 43 characters of base64url.
 * @throws {Error} If the file cannot be read or made, or holds something
 * else than a secret ("Cannot use the agent secret …: current content is
 * …; remove the file so that the pad server makes a new one").
 *
 * @example
 * ```ts
 * import { agentSecret } from "@rustpad-mcp/server/pad-server";
 * import assert from "node:assert/strict";
 *
 * const folder = await Deno.makeTempDir();
 * const secret = await agentSecret(folder);
 * assert.equal(await agentSecret(folder), secret);
 * assert.equal(secret.length, 43);
 * await Deno.remove(folder, { recursive: true });
 * ```
 */
export async function agentSecret(folder: string): Promise<string> {
  const path = `${folder}/${AGENT_SECRET_FILE}`;
  const read = await readSecret(path);
  if (read !== undefined) return read;
  await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const secret = btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  const aside = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(aside, secret, { createNew: true, mode: 0o600 });
    // Deno.writeTextFile's mode is masked by the umask; 0600 is narrower.
    if (Deno.build.os !== "windows") await Deno.chmod(aside, 0o600);
    await Deno.link(aside, path);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  } finally {
    await Deno.remove(aside).catch(() => {});
  }
  const made = await readSecret(path);
  if (made === undefined) {
    throw new Error(
      `Cannot make the agent secret ${path} as it vanished as it was made: current content is none; start the pad server again`,
    );
  }
  return made;
}

/** The secret in `path`, or `undefined` if there is no such file. */
async function readSecret(path: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const secret = text.trim();
  if (!SECRET_PATTERN.test(secret)) {
    throw new Error(
      `Cannot use the agent secret ${path} as it is not 43 characters of base64url: current content is ${
        JSON.stringify(text.slice(0, 60))
      }; remove the file so that the pad server makes a new one`,
    );
  }
  return secret;
}

/**
 * Whether `request` carries `Authorization: Bearer <secret>`, compared in
 * constant time; never with no secret.
 *
 * @param request The request (a socket upgrade).
 * @param secret The pad server's agent secret, if it has one.
 * @returns Whether the request is an agent's.
 *
 * @example
 * ```ts
 * import { presentsAgentSecret } from "./agent_secret.ts";
 * import assert from "node:assert/strict";
 *
 * const secret = "a".repeat(43);
 * const request = new Request("http://x/", {
 *   headers: { authorization: `Bearer ${secret}` },
 * });
 * assert.equal(presentsAgentSecret(request, secret), true);
 * assert.equal(presentsAgentSecret(request, "b".repeat(43)), false);
 * assert.equal(presentsAgentSecret(request, undefined), false);
 * ```
 */
export function presentsAgentSecret(
  request: Request,
  secret: string | undefined,
): boolean {
  if (secret === undefined) return false;
  const given = /^Bearer (\S+)$/i.exec(
    request.headers.get("authorization") ?? "",
  )?.[1];
  if (given === undefined) return false;
  const encoder = new TextEncoder();
  const a = encoder.encode(given);
  const b = encoder.encode(secret);
  return equalInConstantTime(a, b);
}

// A pad at Rustpad's bound (262,144 code points) and twenty suggestions
// that each replace all of it, held through the agent API as a hostile
// agent would: what the people's list, the page and the view must bear.

import { agentApi } from "./_agents.ts";

/** Rustpad's bound on a pad's text, in code points. */
export const MAX_CODE_POINTS = 262_144;
/** How many whole-pad suggestions the flood holds. */
export const FLOOD = 20;

/** `points` code points of lines that begin with `mark`. */
export function wholePad(mark: string, points = MAX_CODE_POINTS): string {
  const line = `${mark} let value = "ünïcödé 🎉 text";\n`;
  const all = Array.from(line.repeat(Math.ceil(points / 20)));
  return all.slice(0, points).join("");
}

/** A unified diff replacing every line of `from` with those of `to`. */
function diffOf(from: string, to: string): string {
  const lines = (text: string, sign: string) =>
    text.split("\n").map((line) => `${sign}${line}`).join("\n");
  return `@@ -1 +1 @@\n${lines(from, "-")}\n${lines(to, "+")}\n`;
}

/**
 * Hold `FLOOD` suggestions on `pad` (at `revision`, where its text is
 * `text`) each replacing the whole text.
 *
 * @returns Their ids.
 */
export async function flood(
  url: string,
  pad: string,
  text: string,
  revision: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < FLOOD; index++) {
    const replacement = wholePad(`s${index}`);
    const held = await agentApi(url, `suggestions/${pad}`, {
      identity: "",
      agent: "flooding-agent",
      author: { name: "rustpad-mcp", hue: 200 },
      summary: `Rewrite everything, take ${index}`,
      revision,
      operation: [-Array.from(text).length, replacement],
      diff: diffOf(text, replacement),
      ttlMs: 600_000,
      identities: 1,
    });
    if (held.status !== 201) {
      throw new Error(`holding answered ${held.status}: ${held.body.error}`);
    }
    ids.push(String(held.body.id));
  }
  return ids;
}

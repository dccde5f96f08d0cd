/// <reference lib="dom" />
// The people list: this person first, then everyone else in the pad with
// their colour, agents with a badge.

import type { UserId, UserInfo } from "../../rustpad/protocol.ts";
import type { Peer } from "./pad_client.ts";
import { agentBadge } from "./_suggestion_marks.ts";

/**
 * Fill `list` with `me` and `peers`, and `count` with how many; `agents`
 * are the user ids of agents.
 */
export function renderPeople(
  list: HTMLElement,
  count: HTMLElement,
  me: UserInfo,
  peers: ReadonlyMap<UserId, Peer>,
  agents: ReadonlySet<UserId>,
): void {
  const items = [{ name: `${me.name} (you)`, hue: me.hue, agent: false }];
  for (const [id, { info }] of peers) {
    items.push({ name: info.name, hue: info.hue, agent: agents.has(id) });
  }
  list.replaceChildren(...items.map(({ name, hue, agent }) => {
    const item = document.createElement("li");
    item.style.setProperty("--hue", String(hue % 360));
    const label = document.createElement("span");
    label.textContent = name;
    item.append(label);
    if (agent) item.append(agentBadge());
    return item;
  }));
  count.textContent = String(items.length);
}

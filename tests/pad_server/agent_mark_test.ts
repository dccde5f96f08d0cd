// The pad server marks as agents the sockets that present its agent secret,
// in the UserInfo it sends people; nobody else can be marked.

import assert from "node:assert/strict";
import {
  AGENT_SECRET_FILE,
  agentSecret,
  startPadServer,
} from "../../src/pad_server/mod.ts";
import { TestClient, waitUntil } from "./_test_client.ts";
import { PadSession } from "../../src/rustpad/mod.ts";

/** A raw socket on `pad` with `headers`, its frames collected. */
async function rawSocket(
  url: string,
  pad: string,
  headers: Record<string, string> = {},
): Promise<{ socket: WebSocket; frames: string[] }> {
  const options = { headers };
  const socket = new WebSocket(
    `${url.replace(/^http/, "ws")}/api/socket/${pad}`,
    options as unknown as string[],
  );
  const frames: string[] = [];
  socket.onmessage = (event) => frames.push(event.data);
  await new Promise((resolve) => socket.onopen = resolve);
  return { socket, frames };
}

async function closed(socket: WebSocket): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return;
  const done = new Promise((resolve) => socket.onclose = resolve);
  socket.close();
  await done;
}

/** The UserInfo bodies a client received, by name. */
function infos(frames: readonly string[]): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const frame of frames) {
    const message = JSON.parse(frame);
    if (message.UserInfo?.info) {
      found.set(message.UserInfo.info.name, message.UserInfo.info);
    }
  }
  return found;
}

Deno.test("the pad server marks a socket that presents the agent secret as an agent in the UserInfo people receive, and neither a wrong secret nor a client's own agent field", async () => {
  const secret = "s".repeat(43);
  await using server = await startPadServer({ agentSecret: secret });
  const agent = await rawSocket(server.url, "pad", {
    authorization: `Bearer ${secret}`,
  });
  const poser = await rawSocket(server.url, "pad", {
    authorization: `Bearer ${"x".repeat(43)}`,
  });
  const liar = await rawSocket(server.url, "pad");
  const person = new TestClient(server.url, "pad");
  try {
    agent.socket.send('{"ClientInfo":{"name":"Agent","hue":1}}');
    poser.socket.send('{"ClientInfo":{"name":"Poser","hue":2}}');
    liar.socket.send('{"ClientInfo":{"name":"Liar","hue":3,"agent":true}}');
    assert.ok(
      await waitUntil(() => infos(person.frames).size === 3),
      "the UserInfo frames",
    );
    assert.deepEqual(Object.fromEntries(infos(person.frames)), {
      Agent: { name: "Agent", hue: 1, agent: true },
      Poser: { name: "Poser", hue: 2 },
      Liar: { name: "Liar", hue: 3 },
    });
    // A newcomer hears the mark in its welcome too.
    const late = new TestClient(server.url, "pad");
    try {
      assert.ok(
        await waitUntil(() => infos(late.frames).size === 3),
        "the UserInfo frames",
      );
      assert.deepEqual(infos(late.frames).get("Agent"), {
        name: "Agent",
        hue: 1,
        agent: true,
      });
    } finally {
      await late.close();
    }
  } finally {
    await person.close();
    for (const { socket } of [agent, poser, liar]) await closed(socket);
  }
});

Deno.test("a pad server without an agent secret marks nobody, whatever a socket presents", async () => {
  await using server = await startPadServer();
  const agent = await rawSocket(server.url, "pad", {
    authorization: "Bearer undefined",
  });
  const person = new TestClient(server.url, "pad");
  try {
    agent.socket.send('{"ClientInfo":{"name":"Agent","hue":1}}');
    assert.ok(
      await waitUntil(() => infos(person.frames).size === 1),
      "the UserInfo frames",
    );
    assert.deepEqual(infos(person.frames).get("Agent"), {
      name: "Agent",
      hue: 1,
    });
  } finally {
    await person.close();
    await closed(agent.socket);
  }
});

Deno.test("agentSecret() makes one secret of 43 base64url characters, readable by its owner only, even when five processes' worth of calls race, and refuses a file holding something else", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const made = await Promise.all(
      [1, 2, 3, 4, 5].map(() => agentSecret(`${folder}/data`)),
    );
    assert.equal(new Set(made).size, 1);
    assert.match(made[0]!, /^[A-Za-z0-9_-]{43}$/);
    const path = `${folder}/data/${AGENT_SECRET_FILE}`;
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    assert.equal(await agentSecret(`${folder}/data`), made[0]);
    assert.deepEqual(
      [...Deno.readDirSync(`${folder}/data`)].map((entry) => entry.name),
      [AGENT_SECRET_FILE],
    );
    await Deno.writeTextFile(path, "guessable");
    await assert.rejects(
      agentSecret(`${folder}/data`),
      /^Error: Cannot use the agent secret .*agent\.secret as it is not 43 characters of base64url: current content is "guessable"; remove the file so that the pad server makes a new one$/,
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("PadSession.open() with agentSecret presents it, so the pad server shows the session to people as an agent", async () => {
  const secret = "k".repeat(43);
  await using server = await startPadServer({ agentSecret: secret });
  const session = await PadSession.open(server.url, "pad", {
    user: { name: "Scribe", hue: 5 },
    agentSecret: secret,
  });
  const person = new TestClient(server.url, "pad");
  try {
    assert.ok(
      await waitUntil(() => infos(person.frames).has("Scribe")),
      "the session's UserInfo",
    );
    assert.deepEqual(infos(person.frames).get("Scribe"), {
      name: "Scribe",
      hue: 5,
      agent: true,
    });
  } finally {
    await person.close();
    await session.close();
  }
});

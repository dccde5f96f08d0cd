import assert from "node:assert/strict";
import {
  ConfirmationError,
  ConfirmationGuard,
  type ConfirmationOutcome,
  type ConfirmationReason,
  type ConfirmationRequest,
  type ElicitConfirm,
} from "../../src/safety/confirmation.ts";

const PAD_TEXT = "Secret meeting notes: the launch is on Friday.";

function request(
  overrides: Partial<ConfirmationRequest> = {},
): ConfirmationRequest {
  return {
    tool: "set_document",
    padId: "notes",
    binding: { pad_id: "notes", text: "A fresh start" },
    content: PAD_TEXT,
    revision: 7,
    message: `Replace all ${PAD_TEXT.length} characters of pad "notes"?`,
    ...overrides,
  };
}

function secret(fill: number): Uint8Array {
  return new Uint8Array(32).fill(fill);
}

/** A clock the test moves by hand. */
function clock(start = 1_700_000_000_000): {
  now: () => number;
  advance: (ms: number) => void;
} {
  let time = start;
  return { now: () => time, advance: (ms) => time += ms };
}

async function issue(
  guard: ConfirmationGuard,
  req: ConfirmationRequest = request(),
): Promise<string> {
  const outcome = await guard.check(req, {});
  assert.equal(outcome.status, "confirmation_required");
  if (outcome.status !== "confirmation_required") {
    throw new Error("unreachable");
  }
  return outcome.confirm_token;
}

async function assertRefused(
  promise: Promise<ConfirmationOutcome>,
  reason: ConfirmationReason,
  pattern: RegExp = /./,
): Promise<ConfirmationError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  assert.ok(
    caught instanceof ConfirmationError,
    `expected a ConfirmationError, got ${caught}`,
  );
  assert.equal(caught.reason, reason, caught.message);
  assert.equal(caught.name, "ConfirmationError");
  assert.match(caught.message, /^Cannot accept confirm_token as /);
  assert.match(caught.message, pattern);
  assert.ok(!caught.message.includes(PAD_TEXT), "never quotes pad text");
  return caught;
}

function decodeSegment(segment: string): Record<string, unknown> {
  const binary = atob(segment.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(
    new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))),
  );
}

function encodeSegment(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(
    /\//g,
    "_",
  ).replace(/=+$/, "");
}

Deno.test("ConfirmationGuard.check() without token or elicit issues a token and changes nothing", async () => {
  const guard = new ConfirmationGuard();
  const req = request();
  const outcome = await guard.check(req, {});
  assert.equal(outcome.status, "confirmation_required");
  if (outcome.status !== "confirmation_required") return;
  assert.equal(outcome.expires_in_seconds, 600);
  assert.match(outcome.confirm_token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  assert.ok(outcome.message.startsWith(req.message), outcome.message);
  assert.match(outcome.message, /Nothing has been changed yet\./);
  assert.match(
    outcome.message,
    /only if they agree, call set_document again with exactly the same arguments plus confirm_token/,
  );
  assert.match(outcome.message, /expires in 10 minutes\.$/);
  assert.ok(!outcome.message.includes(PAD_TEXT));
  assert.ok(!outcome.confirm_token.includes(PAD_TEXT));
});

Deno.test("ConfirmationGuard.check() redeems a token issued for the same request", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard);
  assert.deepEqual(await guard.check(request(), { token }), {
    status: "confirmed",
  });
});

Deno.test("ConfirmationGuard.check() binds arguments regardless of key order", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(
    guard,
    request({
      binding: { b: [1, { y: 2, x: 1 }], a: "s", skipped: undefined },
    }),
  );
  assert.deepEqual(
    await guard.check(
      request({ binding: { a: "s", b: [1, { x: 1, y: 2 }] } }),
      { token },
    ),
    { status: "confirmed" },
  );
});

Deno.test("ConfirmationGuard.check() keeps every issued token valid until it is used", async () => {
  const guard = new ConfirmationGuard();
  const first = await issue(guard);
  const second = await issue(guard);
  assert.notEqual(first, second);
  assert.equal(
    (await guard.check(request(), { token: second })).status,
    "confirmed",
  );
  assert.equal(
    (await guard.check(request(), { token: first })).status,
    "confirmed",
  );
});

Deno.test("ConfirmationGuard.check() refuses malformed tokens", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard);
  const [segment = "", mac = ""] = token.split(".");
  for (
    const bad of [
      "",
      "abc",
      "a.b.c",
      ".",
      `${segment}.`,
      `.${mac}`,
      `${segment}.${mac}.${mac}`,
      `${segment}.${mac.slice(1)}`,
      `${segment}.${mac}A`,
      `${segment}+.${mac}`,
      ` ${token}`,
      `${token}\n`,
      `${"A".repeat(5000)}.${mac}`,
    ]
  ) {
    await assertRefused(
      guard.check(request(), { token: bad }),
      "malformed",
      /as it is malformed: pass back exactly the confirm_token string of a confirmation_required result, or call set_document again without confirm_token for a fresh one$/,
    );
  }
  // A malformed attempt does not use the real token up.
  assert.equal((await guard.check(request(), { token })).status, "confirmed");
});

Deno.test("ConfirmationGuard.check() refuses a token of a guard with another secret as forged", async () => {
  const a = new ConfirmationGuard({ secret: secret(1) });
  const b = new ConfirmationGuard({ secret: secret(2) });
  const fromA = await issue(a);
  const fromB = await issue(b);
  await assertRefused(
    b.check(request(), { token: fromA }),
    "forged",
    /as this server did not issue it: it is forged, damaged beyond recognition, or from before the server restarted; call set_document again without confirm_token for a fresh one$/,
  );
  await assertRefused(a.check(request(), { token: fromB }), "forged");
  assert.equal(
    (await a.check(request(), { token: fromA })).status,
    "confirmed",
  );
  assert.equal(
    (await b.check(request(), { token: fromB })).status,
    "confirmed",
  );
});

Deno.test("ConfirmationGuard.check() accepts tokens across guards that share a secret", async () => {
  const token = await issue(new ConfirmationGuard({ secret: secret(7) }));
  const other = new ConfirmationGuard({ secret: secret(7) });
  assert.equal((await other.check(request(), { token })).status, "confirmed");
});

Deno.test("ConfirmationGuard.check() refuses a made-up token with a well-formed shape as forged", async () => {
  const guard = new ConfirmationGuard();
  const payload = decodeSegment((await issue(guard)).split(".")[0]!);
  const madeUp = encodeSegment({ ...payload, n: "A".repeat(22) });
  await assertRefused(
    guard.check(request(), { token: `${madeUp}.${"A".repeat(42)}E` }),
    "forged",
  );
  await assertRefused(
    guard.check(request(), {
      token: `${encodeSegment({ hello: "world" })}.${"A".repeat(42)}E`,
    }),
    "forged",
  );
});

Deno.test("ConfirmationGuard.check() refuses a real token with a changed payload as altered", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard);
  const [segment = "", mac = ""] = token.split(".");
  const payload = decodeSegment(segment);
  for (
    const change of [
      { e: (payload.e as number) + 3_600_000 },
      { p: "other" },
      { t: "append_to_document" },
      { r: (payload.r as number) + 1 },
      {
        c: `${String(payload.c).startsWith("A") ? "B" : "A"}${
          String(payload.c).slice(1)
        }`,
      },
    ]
  ) {
    await assertRefused(
      guard.check(request(), {
        token: `${encodeSegment({ ...payload, ...change })}.${mac}`,
      }),
      "altered",
      /as it was changed after this server issued it: pass it back exactly as given, or call set_document again without confirm_token for a fresh one$/,
    );
  }
  const flipped = `${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`;
  await assertRefused(
    guard.check(request(), { token: `${segment}.${flipped}` }),
    "altered",
  );
});

Deno.test("ConfirmationGuard.check() refuses every single-character change of a token", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard);
  const alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (let i = 0; i < token.length; i++) {
    if (token[i] === ".") continue;
    const replacement = alphabet[(alphabet.indexOf(token[i]!) + 1) % 64];
    const changed = token.slice(0, i) + replacement + token.slice(i + 1);
    await assert.rejects(
      guard.check(request(), { token: changed }),
      (error) =>
        error instanceof ConfirmationError &&
        ["malformed", "forged", "altered"].includes(error.reason),
      `position ${i}`,
    );
  }
  assert.equal((await guard.check(request(), { token })).status, "confirmed");
});

Deno.test("ConfirmationGuard.check() refuses a token used before", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard);
  assert.equal((await guard.check(request(), { token })).status, "confirmed");
  await assertRefused(
    guard.check(request(), { token }),
    "reused",
    /as it has already been used: each token confirms one call; call set_document again without confirm_token for a fresh one, and ask the person again$/,
  );
});

Deno.test("ConfirmationGuard.check() lets only one of two concurrent redemptions through", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard);
  const results = await Promise.allSettled([
    guard.check(request(), { token }),
    guard.check(request(), { token }),
  ]);
  const confirmed = results.filter((r) =>
    r.status === "fulfilled" && r.value.status === "confirmed"
  );
  const reused = results.filter((r) =>
    r.status === "rejected" && r.reason instanceof ConfirmationError &&
    r.reason.reason === "reused"
  );
  assert.equal(confirmed.length, 1);
  assert.equal(reused.length, 1);
});

Deno.test("ConfirmationGuard.check() refuses a token after its lifetime, using the injected clock", async () => {
  const time = clock();
  const guard = new ConfirmationGuard({ now: time.now });
  const early = await issue(guard);
  const late = await issue(guard);
  time.advance(600_000 - 1);
  assert.equal(
    (await guard.check(request(), { token: early })).status,
    "confirmed",
  );
  time.advance(1);
  await assertRefused(
    guard.check(request(), { token: late }),
    "expired",
    /as it has expired: tokens are valid for 10 minutes and this one expired 0 ms ago; call set_document again without confirm_token for a fresh one, and ask the person again$/,
  );
  time.advance(90_000);
  await assertRefused(
    guard.check(request(), { token: late }),
    "expired",
    /expired 90 seconds ago/,
  );
  // A used token that has since expired is reported as expired.
  await assertRefused(guard.check(request(), { token: early }), "expired");
});

Deno.test("ConfirmationGuard honours a custom ttlMs in the token and its message", async () => {
  const time = clock();
  const guard = new ConfirmationGuard({ now: time.now, ttlMs: 30_000 });
  const outcome = await guard.check(request(), {});
  assert.equal(outcome.status, "confirmation_required");
  if (outcome.status !== "confirmation_required") return;
  assert.equal(outcome.expires_in_seconds, 30);
  assert.match(outcome.message, /expires in 30 seconds\.$/);
  time.advance(30_000);
  await assertRefused(
    guard.check(request(), { token: outcome.confirm_token }),
    "expired",
  );
});

Deno.test("ConfirmationGuard.check() refuses a token for another pad, naming both pads", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard);
  await assertRefused(
    guard.check(request({ padId: "other" }), { token }),
    "mismatched",
    /as it was issued for another pad: it confirms pad "notes", not pad "other"; call set_document again without confirm_token for a fresh one$/,
  );
});

Deno.test("ConfirmationGuard.check() refuses a token for another tool, naming both tools", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard);
  await assertRefused(
    guard.check(request({ tool: "replace_in_document" }), { token }),
    "mismatched",
    /as it was issued for another tool: it confirms "set_document", not "replace_in_document"; call replace_in_document again/,
  );
});

Deno.test("ConfirmationGuard.check() refuses a token for other arguments", async () => {
  const guard = new ConfirmationGuard();
  const req = request({
    tool: "replace_in_document",
    binding: { pad_id: "notes", search: "a", replace: "b", count: 3 },
  });
  const token = await issue(guard, req);
  for (
    const binding of [
      { pad_id: "notes", search: "a", replace: "b", count: 4 },
      { pad_id: "notes", search: "a", replace: "c", count: 3 },
      { pad_id: "notes", search: "A", replace: "b", count: 3 },
      { pad_id: "notes", search: "a", replace: "b" },
      { pad_id: "notes", search: "a", replace: "b", count: "3" },
      [{ pad_id: "notes", search: "a", replace: "b", count: 3 }],
    ]
  ) {
    await assertRefused(
      guard.check({ ...req, binding }, { token }),
      "mismatched",
      /as the arguments differ from the ones it was issued for: call replace_in_document again with exactly the same arguments plus confirm_token, or without confirm_token for a fresh confirmation$/,
    );
  }
  assert.equal((await guard.check(req, { token })).status, "confirmed");
});

Deno.test("ConfirmationGuard.check() refuses a token once the pad text has changed", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard);
  for (
    const content of [
      PAD_TEXT + " ",
      "",
      PAD_TEXT.replace("F", "f"),
      "\uD800",
      "\uDC00",
    ]
  ) {
    await assertRefused(
      guard.check(request({ content }), { token }),
      "mismatched",
      /as the pad changed since the confirmation was issued: pad "notes" no longer holds the text the person agreed to change; call set_document again without confirm_token for a fresh one, and ask the person again$/,
    );
  }
  // Refusals do not use the token up.
  assert.equal((await guard.check(request(), { token })).status, "confirmed");
});

Deno.test("ConfirmationGuard.check() refuses a token once the pad's revision has moved, even with the same text", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard);
  // A person changed the pad and restored the old text: same content, later
  // revision. So is a pad written with this token on another replica.
  await assertRefused(
    guard.check(request({ revision: 9 }), { token }),
    "mismatched",
    /as the pad changed since the confirmation was issued: pad "notes" is at revision 9, not 7 \(someone edited it, or this token was already used\)/,
  );
  assert.deepEqual(await guard.check(request(), { token }), {
    status: "confirmed",
  });
});

Deno.test("ConfirmationGuard.check() makes a token redeemed on one replica dead on another that shares the secret", async () => {
  const replicaA = new ConfirmationGuard({ secret: secret(3) });
  const replicaB = new ConfirmationGuard({ secret: secret(3) });
  const token = await issue(replicaA);
  assert.deepEqual(await replicaB.check(request(), { token }), {
    status: "confirmed",
  });
  // The write it confirmed moved the pad to the next revision.
  await assertRefused(
    replicaA.check(request({ revision: 8 }), { token }),
    "mismatched",
  );
  await assertRefused(replicaB.check(request(), { token }), "reused");
});

Deno.test("ConfirmationGuard.check() tells lone surrogates apart in the bound content", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard, request({ content: "\uD800" }));
  await assertRefused(
    guard.check(request({ content: "\uD801" }), { token }),
    "mismatched",
  );
  assert.equal(
    (await guard.check(request({ content: "\uD800" }), { token })).status,
    "confirmed",
  );
});

Deno.test("ConfirmationGuard.check() refuses arguments that are not plain JSON with a TypeError", async () => {
  const guard = new ConfirmationGuard();
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  for (
    const binding of [
      { n: NaN },
      { n: Infinity },
      { big: 1n },
      { when: new Date(0) },
      { f: () => 1 },
      [undefined],
      undefined,
      cyclic,
    ]
  ) {
    await assert.rejects(
      guard.check(request({ binding }), {}),
      (error) =>
        error instanceof TypeError &&
        /^Cannot bind a confirmation to the arguments as they are not plain JSON: binding/
          .test(error.message),
    );
  }
});

Deno.test("ConfirmationGuard.check() proceeds when the person accepts with confirm: true", async () => {
  const guard = new ConfirmationGuard();
  const asked: string[] = [];
  const elicit: ElicitConfirm = (message) => {
    asked.push(message);
    return Promise.resolve({ action: "accept", content: { confirm: true } });
  };
  assert.deepEqual(await guard.check(request(), { elicit }), {
    status: "confirmed",
  });
  assert.deepEqual(asked, [request().message]);
});

Deno.test("ConfirmationGuard.check() reports no, decline and cancel as declined with distinct messages", async () => {
  const guard = new ConfirmationGuard();
  const answers: Awaited<ReturnType<ElicitConfirm>>[] = [
    { action: "accept", content: { confirm: false } },
    { action: "decline" },
    { action: "cancel" },
  ];
  const messages: string[] = [];
  for (const answer of answers) {
    const outcome = await guard.check(request(), {
      elicit: () => Promise.resolve(answer),
    });
    assert.equal(outcome.status, "declined");
    if (outcome.status !== "declined") return;
    assert.match(outcome.message, /set_document on pad "notes"/);
    assert.match(outcome.message, /nothing was changed/);
    assert.ok(!outcome.message.includes(PAD_TEXT));
    messages.push(outcome.message);
  }
  assert.equal(new Set(messages).size, 3);
  assert.match(messages[0]!, /^The person answered no to /);
  assert.match(messages[1]!, /^The person declined /);
  assert.match(messages[2]!, /^The person dismissed the confirmation /);
});

Deno.test("ConfirmationGuard.check() treats an accept without confirm: true as a no", async () => {
  const guard = new ConfirmationGuard();
  for (const content of [undefined, {}, { confirm: "true" }, { confirm: 1 }]) {
    const outcome = await guard.check(request(), {
      elicit: () => Promise.resolve({ action: "accept", content }),
    });
    assert.equal(outcome.status, "declined");
  }
});

Deno.test("ConfirmationGuard.check() lets an error of the elicitation propagate", async () => {
  const guard = new ConfirmationGuard();
  const failure = new Error("client went away");
  await assert.rejects(
    guard.check(request(), { elicit: () => Promise.reject(failure) }),
    (error) => error === failure,
  );
});

Deno.test("ConfirmationGuard.check() redeems a given token without asking", async () => {
  const guard = new ConfirmationGuard();
  const token = await issue(guard);
  let asked = 0;
  const elicit: ElicitConfirm = () => {
    asked++;
    return Promise.resolve({ action: "decline" });
  };
  assert.equal(
    (await guard.check(request(), { token, elicit })).status,
    "confirmed",
  );
  await assertRefused(guard.check(request(), { token, elicit }), "reused");
  assert.equal(asked, 0);
});

Deno.test("ConfirmationGuard.check() treats undefined token and elicit as absent", async () => {
  const guard = new ConfirmationGuard();
  const outcome = await guard.check(request(), {
    token: undefined,
    elicit: undefined,
  });
  assert.equal(outcome.status, "confirmation_required");
});

Deno.test("new ConfirmationGuard() refuses a bad ttlMs or a short secret", () => {
  for (const ttlMs of [0, -1, 1.5, NaN, Infinity]) {
    assert.throws(
      () => new ConfirmationGuard({ ttlMs }),
      (error) =>
        error instanceof RangeError &&
        /^Cannot create confirmation guard as ttlMs must be a positive integer: current value is /
          .test(error.message),
    );
  }
  assert.throws(
    () => new ConfirmationGuard({ secret: new Uint8Array(31) }),
    (error) =>
      error instanceof RangeError &&
      error.message ===
        "Cannot create confirmation guard as the secret must be at least 32 bytes: current length is 31",
  );
});

Deno.test("new ConfirmationGuard() copies its secret", async () => {
  const key = secret(3);
  const guard = new ConfirmationGuard({ secret: key });
  const token = await issue(guard);
  key.fill(4);
  assert.equal((await guard.check(request(), { token })).status, "confirmed");
});

Deno.test("ConfirmationGuard.requestedSchema asks for one required boolean confirm", () => {
  const schema = ConfirmationGuard.requestedSchema;
  assert.equal(schema.type, "object");
  assert.deepEqual(Object.keys(schema.properties), ["confirm"]);
  assert.equal(schema.properties.confirm.type, "boolean");
  assert.ok(schema.properties.confirm.title.length > 0);
  assert.ok(schema.properties.confirm.description.length > 0);
  assert.deepEqual(schema.required, ["confirm"]);
  // It fits the SDK's `required?: string[]`.
  const required: string[] = schema.required;
  assert.equal(required.length, 1);
});

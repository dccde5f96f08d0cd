// The names a new person gets in the page: an adjective and one of
// Rustpad's animals, so people in one pad rarely share a name.

import assert from "node:assert/strict";
import { randomPerson } from "../../src/pad_server/editor/_names.ts";

Deno.test("randomPerson() draws from thousands of names: 2,000 draws give over 1,500 different ones", () => {
  // From 7,296 names about 1,750 differ (7 animals alone would give 7).
  const names = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const { name, hue } = randomPerson();
    assert.match(name, /^[A-Z][a-z]+ [A-Z][a-z]+( [A-Z][a-z]+)?$/);
    assert.ok(Number.isInteger(hue) && hue >= 0 && hue < 360, String(hue));
    names.add(name);
  }
  assert.ok(names.size > 1500, `${names.size} different names`);
});

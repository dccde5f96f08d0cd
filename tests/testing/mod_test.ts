import assert from "node:assert/strict";
import * as testing from "../../src/testing/mod.ts";

Deno.test("testing/mod.ts is the package's ./testing export and exports the pad server API only", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
  );
  assert.equal(config.exports["./testing"], "./src/testing/mod.ts");
  assert.deepEqual(Object.keys(testing).sort(), [
    "FaultInjector",
    "HostileServer",
    "PadDatabase",
    "PadServer",
    "SqlitePadDatabase",
    "startHostileServer",
    "startPadServer",
  ]);
});

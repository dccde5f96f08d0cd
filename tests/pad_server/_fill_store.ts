// Run in a mount namespace on a small tmpfs by pad_server_durability_test:
// one group commit of two pads, one too big for the disk left, one small;
// prints what `write` answered and what each pad reads back as.
//
//   deno run -A tests/pad_server/_fill_store.ts FILE

import { restartLog, SqlitePadDatabase } from "../../src/pad_server/mod.ts";

using database = new SqlitePadDatabase(Deno.args[0]!);
const write = (padId: string, text: string) => ({
  padId,
  from: 0,
  operations: restartLog(text),
  language: null,
  nextUserId: 1,
});
const failures = database.write([
  write("big", "x".repeat(200_000)),
  write("small", "fits"),
]);
console.log(JSON.stringify({
  failed: failures.map((failure) => failure.padId),
  big: database.get("big")?.text.length ?? null,
  small: database.get("small")?.text ?? null,
}));

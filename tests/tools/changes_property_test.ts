// get_changes against the obvious model: after random operations by several
// people, each line's last writer is the author of the newest code point
// in it (its newline included), as a list of who wrote every code point
// says.

import assert from "node:assert/strict";
import { connect, structured } from "../_mcp.ts";
import { RawPerson } from "../_person.ts";
import { Random } from "../_random.ts";
import type { TextOperation } from "../../src/mod.ts";
import { untilServerSees } from "./_pads.ts";

interface Written {
  author: string;
  revision: number;
}

/** Apply `operation` to the per-code-point writers, as `author` at `revision`. */
function applyToModel(
  model: Written[],
  operation: TextOperation,
  written: Written,
): Written[] {
  const next: Written[] = [];
  let at = 0;
  for (const component of operation.components) {
    if (typeof component === "string") {
      for (const _ of component) next.push(written);
    } else if (component > 0) {
      next.push(...model.slice(at, at + component));
      at += component;
    } else at -= component;
  }
  return next;
}

/** Each line's newest writer, from the model and the text's code points. */
function lineWriters(text: string, model: Written[]): string[] {
  const lines: string[] = [];
  let newest: Written | undefined;
  [...text].forEach((character, index) => {
    const written = model[index]!;
    if (newest === undefined || written.revision > newest.revision) {
      newest = written;
    }
    if (character === "\n") {
      lines.push(`${newest.author}@${newest.revision}`);
      newest = undefined;
    }
  });
  if (newest !== undefined) lines.push(`${newest.author}@${newest.revision}`);
  return lines;
}

Deno.test("get_changes names each line's newest writer as a per-code-point model does, after random operations by three people", async () => {
  await using h = await connect();
  const random = new Random(77);
  for (let round = 0; round < 8; round++) {
    const id = `cp-${round}`;
    // Long enough in some rounds for chunks of runs to split.
    const base = random.text(random.between(5, 400));
    structured(await h.call("append_to_document", { id, text: base }));
    let model: Written[] = [...base].map(() => ({
      author: "you",
      revision: 1,
    }));
    const people = await Promise.all(
      [0, 1, 2].map(() => RawPerson.open(h.pads.url, id)),
    );
    try {
      let revision = 1;
      let text = base;
      for (let k = 0; k < 12; k++) {
        const person = random.pick(people);
        const operation = random.operation(person.text, 3);
        await person.edit(operation);
        revision++;
        model = applyToModel(model, operation, {
          author: `user ${person.id}`,
          revision,
        });
        text = person.text;
      }
      await untilServerSees(h, id, revision);
      const answer = structured(
        await h.call("get_changes", { id, start_line: 1 }),
      ) as {
        lines: {
          start_line: number;
          end_line: number;
          author: { name: string };
          revision: number;
        }[];
      };
      const got: string[] = [];
      for (const group of answer.lines) {
        for (let line = group.start_line; line <= group.end_line; line++) {
          got[line - 1] = `${group.author.name}@${group.revision}`;
        }
      }
      assert.deepEqual(got, lineWriters(text, model), `round ${round}`);
    } finally {
      for (const person of people) await person[Symbol.asyncDispose]();
    }
  }
});

// Runs one fuzzer round: people type on a pad of the compatible server while
// the agent calls the write tools through an SDK Client and the server
// injects faults; then checks that everyone holds the server's text and that
// every marker the agent wrote is there exactly when its call said so.

// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  PadDatabase,
  type PadServer,
  startPadServer,
} from "../../src/testing/mod.ts";
import { FuzzPerson, isMarkerPoint } from "./_person.ts";
import type { Call, Fault, Plan } from "./_plan.ts";
import { connect, type Harness, textOf } from "../_mcp.ts";
import { AgentModel, type Outcome } from "./_model.ts";

const PAD = "fuzz";
const UNKNOWN = /is unknown|may or may not/i;

export interface RoundReport {
  problems: string[];
  /** What happened, one line per event, for the replay. */
  log: string[];
  outcomes: Record<Outcome, number>;
  /** Undos that answered 'applied' and changed no marker. */
  undoNoops: number;
}

const FIRST_MARKER = 0xf0000;

/** The label of call `index`'s marker, as logs and the model name it. */
export function markerLabel(index: number): string {
  return `⟦${index}⟧`;
}

/** The marker's text: two private-use code points new to the round. */
export function markerText(label: string): string {
  const index = Number(label.slice(1, -1));
  return String.fromCodePoint(
    FIRST_MARKER + 2 * index,
    FIRST_MARKER + 2 * index + 1,
  );
}

/** Labels of the markers in `text`, sorted; a torn marker is listed too. */
export function markersIn(text: string): string[] {
  const points = [...text];
  const labels: string[] = [];
  for (let i = 0; i < points.length; i++) {
    if (!isMarkerPoint(points[i])) continue;
    const offset = points[i]!.codePointAt(0)! - FIRST_MARKER;
    if (
      offset % 2 === 0 &&
      points[i + 1]?.codePointAt(0) === FIRST_MARKER + offset + 1
    ) {
      labels.push(markerLabel(offset / 2));
      i++;
    } else {
      labels.push(`torn⟦${offset >> 1}⟧`);
    }
  }
  return labels.sort();
}

export async function runRound(plan: Plan): Promise<RoundReport> {
  const database = new PadDatabase(
    plan.initial === "" ? {} : { [PAD]: { text: plan.initial } },
  );
  let server = await startPadServer({ database, snapshotIntervalMs: 0 });
  const port = server.port;
  const log: string[] = [];
  const model = new AgentModel(log);
  const harness = await connect({
    pads: server,
    env: { RUSTPAD_TIMEOUT_MS: String(plan.timeoutMs) },
  });
  const people = plan.people.map(() => new FuzzPerson(server.url, PAD));
  try {
    const typing = Promise.all(
      people.map((person, i) => person.type(plan.people[i]!)),
    );
    let frameDelay = false;
    for (const [index, step] of plan.steps.entries()) {
      if (step.kind === "fault") {
        log.push(`fault ${JSON.stringify(step.fault)}`);
        if (step.fault.type === "restart") {
          server.snapshot();
          await server.close();
          server = await startAgainOn(port, database);
        } else {
          frameDelay ||= step.fault.type === "frame-delay";
          inject(server, step.fault);
        }
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, step.delayMs));
      await agentCall(harness, model, step.call, index, () => server.text(PAD));
      if (frameDelay) server.setFrameDelay(0);
      frameDelay = false;
    }
    await typing;
    server.setFrameDelay(0);
    await converge(harness, people, server, model);
  } catch (error) {
    model.problems.push(`the round threw: ${(error as Error).stack}`);
  } finally {
    await Promise.all(people.map((person) => person.close()));
    await harness[Symbol.asyncDispose]();
    await server.close();
  }
  return {
    problems: model.problems,
    log,
    outcomes: model.outcomes,
    undoNoops: model.undoNoops,
  };
}

function inject(server: PadServer, fault: Fault): void {
  switch (fault.type) {
    case "drop":
      return server.dropNextEdit({ pad: PAD, when: fault.when });
    case "stall":
      return server.stallNextEdit({ pad: PAD });
    case "ack-delay":
      return server.delayNextAck({ pad: PAD, ms: fault.ms });
    case "history-delay":
      return server.delayNextHistory({ pad: PAD, ms: fault.ms });
    case "departure-delay":
      return server.delayNextDeparture({ pad: PAD, ms: fault.ms });
    case "frame-delay":
      return server.setFrameDelay(fault.ms);
  }
}

async function agentCall(
  harness: Harness,
  model: AgentModel,
  call: Call,
  index: number,
  serverText: () => string,
): Promise<void> {
  const label = markerLabel(index);
  const marker = markerText(label);
  // A marker no call wrote: searching for it matches nowhere.
  const picked = model.pick("pick" in call ? call.pick * 2 % 1 : 0);
  const existing = markerText(picked ?? markerLabel(30_000));
  const invoke = async (args: Record<string, unknown>) => {
    const result = await harness.client.callTool({
      name: call.tool,
      arguments: { id: PAD, ...args },
    }) as CallToolResult;
    return classify(result);
  };
  switch (call.tool) {
    case "append_to_document": {
      const answer = await invoke({ text: marker });
      return model.settle(call.tool, answer, markersIn(serverText()), {
        added: [label],
        removed: [],
      });
    }
    case "replace_in_document": {
      const answer = await invoke({ search: existing, replace: marker });
      return model.settle(call.tool, answer, markersIn(serverText()), {
        added: [label],
        removed: picked === undefined ? [] : [picked],
      });
    }
    case "edit_document": {
      const base = model.baseRevision(call.baseBack);
      // Half insert a line before the first, half append to a marker.
      const edit = call.pick < 0.5
        ? { start_line: 1, end_line: 0, new_string: marker }
        : { old_string: existing, new_string: existing + marker };
      const answer = await invoke({
        edits: [edit],
        ...(base === undefined ? {} : { base_revision: base }),
      });
      return model.settle(call.tool, answer, markersIn(serverText()), {
        added: [label],
        removed: [],
      });
    }
    case "set_document": {
      const effect = { added: [label], removed: model.expected() };
      let answer = await invoke({ text: `${marker}\n` });
      if (answer.token !== undefined) {
        model.settle(call.tool, answer, markersIn(serverText()), effect);
        answer = await invoke({
          text: `${marker}\n`,
          confirm_token: answer.token,
        });
      }
      return model.settle(call.tool, answer, markersIn(serverText()), effect);
    }
    case "undo_last_edit": {
      const answer = await invoke({});
      return model.settleUndo(answer, markersIn(serverText()));
    }
  }
}

/** What a call answered, as the model needs it. */
export interface Answer {
  outcome: Outcome;
  text: string;
  revision?: number;
  token?: string;
}

function classify(result: CallToolResult): Answer {
  const text = textOf(result);
  if (result.isError) {
    return { outcome: UNKNOWN.test(text) ? "unknown" : "failed", text };
  }
  const structured = (result.structuredContent ?? {}) as Record<
    string,
    unknown
  >;
  const answer: Answer = {
    outcome: structured.status === "applied" ? "applied" : "unchanged",
    text: `${structured.status}`,
  };
  if (typeof structured.revision === "number") {
    answer.revision = structured.revision;
  }
  if (typeof structured.confirm_token === "string") {
    answer.token = structured.confirm_token;
  }
  return answer;
}

/** Everyone ends on the server's text; the markers are the model's. */
async function converge(
  harness: Harness,
  people: FuzzPerson[],
  server: PadServer,
  model: AgentModel,
): Promise<void> {
  const settled = await Promise.all(people.map((person) => person.settle()));
  const text = server.text(PAD);
  for (const [i, person] of people.entries()) {
    if (person.broken !== undefined) {
      model.problems.push(
        `person ${i} received history out of order: ${person.broken}`,
      );
    }
    if (!settled[i]) model.problems.push(`person ${i} could not reconnect`);
    else if (person.text !== text) {
      model.problems.push(
        `person ${i} holds ${JSON.stringify(person.text)}, the server ${
          JSON.stringify(text)
        }`,
      );
    }
  }
  // The agent's session follows the server a few frames behind at most:
  // ask again for a while before calling it a divergence.
  let agentText: string | undefined;
  for (let tries = 0; tries < 50 && agentText !== text; tries++) {
    if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const read = await harness.client.callTool({
      name: "get_document",
      arguments: { id: PAD },
    }) as CallToolResult;
    agentText = (read.structuredContent as { text?: string } | undefined)
      ?.text ?? textOf(read);
  }
  if (agentText !== text) {
    model.problems.push(
      `get_document answered ${JSON.stringify(agentText)}, the server holds ${
        JSON.stringify(text)
      }`,
    );
  }
  model.check("at the end", markersIn(text));
}

/**
 * The pad server started again on `port`, as people's editors expect. The
 * suite runs in parallel: a client socket of another test may be given the
 * port as its own for a moment after the close (Linux then refuses to
 * listen on it), so a taken port is tried again for up to 2 s.
 */
async function startAgainOn(
  port: number,
  database: PadDatabase,
): Promise<PadServer> {
  for (let attempt = 1;; attempt++) {
    try {
      return await startPadServer({ database, port, snapshotIntervalMs: 0 });
    } catch (error) {
      if (!(error instanceof Deno.errors.AddrInUse) || attempt === 40) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

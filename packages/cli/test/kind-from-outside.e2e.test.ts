// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@reelsmith/core";
import {
  type Coordinator,
  connect,
  followRun,
  startWorker,
  submitRun,
  type Worker,
} from "@reelsmith/distributed";
import { serviceAccount } from "@reelsmith/distributed/admin";
import { writeReport } from "@reelsmith/report";
import {
  formatDiagnostic,
  planPipeline,
  type RunEvent,
  type RunOptions,
  runPipeline,
  validatePipeline,
} from "@reelsmith/runner";
import { builtInStepKinds } from "@reelsmith/runner/kinds";
import { type Simulator, startSimulator } from "@reelsmith/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startTestDatabase, type TestDatabase } from "../../distributed/test/helpers/postgres.js";
import { formatBytes } from "../src/render/format.js";
import { createPlainLines } from "../src/render/plain-renderer.js";
// The kind under test: one folder, nothing else in the repository names it.
import { voiceKind } from "./fixtures/voice-kind/index.js";

// Its one registry line.
const stepKinds = [...builtInStepKinds, voiceKind];
// Its catalog, in a profile section of its own, priced as the service charges.
const catalogs = {
  voice_models: [{ id: "reel-voice-1", voice: "ava", creditsPer1000Characters: 15 }],
};
const lines = [
  "A lighthouse keeper finds a red fox on the rocks.",
  "The fox follows her up the winding stairs.",
  "At dawn the two of them watch the boats come home.",
];
const ids = ["open", "middle", "close"];
// One step per line, each line known before the run (so priced before it).
const source = (model = "reel-voice-1") => `name: voices
steps:
${lines.map((line, at) => `  - id: ${ids[at]}\n    voice: { text: ${JSON.stringify(line)}, voice_model: ${model} }`).join("\n")}
`;
// The same lines as a fan-out: their text is known only at run time, so each line's price is
// reserved from the budget before it is sent.
const fanOut = `name: voices
steps:
  - id: say
    for_each: ${JSON.stringify(lines)}
    voice: { text: "\${{ item }}", voice_model: reel-voice-1 }
`;
// 15 credits per 1,000 characters, rounded up: 1 credit a line.
const perLine = lines.map((line) => Math.ceil((15 * line.length) / 1000));
const total = perLine.reduce((sum, credits) => sum + credits, 0);

describe("a kind from a test folder gets what the built-in kinds get, with no change outside its folder", () => {
  let simulator: Simulator;
  let database: TestDatabase;
  let worker: Worker;
  let coordinator: Coordinator;
  beforeAll(async () => {
    simulator = await startSimulator({ timeScale: 0.05 });
    database = await startTestDatabase();
    worker = await startWorker({
      databaseUrl: database.url,
      apiKey: simulator.apiKey,
      stepKinds: [voiceKind],
    });
    coordinator = await connect(database.url);
  });
  afterAll(async () => {
    await worker?.stop({ graceMs: 0 });
    await coordinator?.close();
    await database?.stop();
    await simulator?.close();
  });
  const client = () => createClient({ baseURL: simulator.url, apiKey: simulator.apiKey });
  // A local run with the kind's one registry line and its catalog, in a directory of its own.
  const local = (extra: Partial<RunOptions> = {}): RunOptions => ({
    stepKinds,
    catalogs,
    client: client(),
    runsRoot: mkdtempSync(join(tmpdir(), "reelsmith-voice-")),
    cache: false,
    ...extra,
  });
  const spoken = () => simulator.stats().speech.requests;

  it("is checked against its own catalog and planned with its own price and request name", async () => {
    const before = spoken();
    const wrong = await runPipeline(pipelineFile("reel-voice-9"), local()).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(wrong?.message).toContain("3 models the pipeline names are unknown to the service");
    expect(wrong?.message).toMatch(
      /voices\.yaml:4:\d+: voice model `reel-voice-9`.*did you mean `reel-voice-1`/,
    );
    expect(spoken()).toBe(before);
    const { pipeline, diagnostics } = await validatePipeline(
      { source: source(), path: "voices.yaml" },
      { stepKinds, catalogs },
    );
    expect(diagnostics.map(formatDiagnostic)).toEqual([]);
    const plan = planPipeline(pipeline!, { stepKinds, catalogs });
    expect(plan.limits.requests.voiceLines).toBe(3);
    expect(plan.limits.requestLabels?.voiceLines).toBe("voice lines");
    expect(plan.limits.estimate).toMatchObject({ credits: total, complete: true });
  });

  it("is refused over the budget before anything is sent; each line reserves its price", async () => {
    const before = spoken();
    const refused = await runPipeline(pipelineFile(), local({ maxCredits: total - 1 })).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toMatch(new RegExp(`${total} credits`));
    expect(spoken()).toBe(before);
    // Each line's text known once its fan-out's items are: the kind prices every line then,
    // and the fan-out, which the budget cannot pay for whole, stops before its first line.
    const file = pipelineFile();
    writeFileSync(file, fanOut);
    const whole = await runPipeline(file, local({ maxCredits: total - 1 }));
    expect(whole.status).toBe("budget_reached");
    expect(spoken()).toBe(before);
    // Allowed a part: each line reserves its price, and the budget stops the one it cannot pay for.
    const stopped = await runPipeline(file, local({ maxCredits: total - 1, allowPartial: true }));
    expect(stopped.status).toBe("budget_reached");
    expect(spoken() - before).toBe(2);
    expect(stopped.totals.credits).toBe(perLine[0]! + perLine[1]!);
  });

  it("runs on its own queue, one at a time, into the ledger, the report and the progress lines", async () => {
    const events: RunEvent[] = [];
    const charged = simulator.stats().creditsByEndpoint.speech;
    const result = await runPipeline(
      pipelineFile(),
      local({ onEvent: (event) => events.push(event) }),
    );
    expect(result.status).toBe("succeeded");
    // The ledger: what the service charged, and what the kind says it made.
    expect(result.totals.credits).toBe(simulator.stats().creditsByEndpoint.speech - charged);
    expect(result.totals.credits).toBe(total);
    expect(result.totals.made).toEqual({ "voice lines": 3 });
    const estimate = events.find((event) => event.type === "run.estimate");
    expect(estimate?.type === "run.estimate" && estimate.estimate.credits).toBe(total);
    // Its queue holds one unit at a time (its `slots: 1`): each line is spoken before the next
    // takes the queue's slot.
    const progress = events.flatMap((event) =>
      event.type === "unit.progress" ? [`${event.kind}:${event.phase}:${event.stage}`] : [],
    );
    expect(progress).toEqual([
      "voice:turn:slot",
      "voice:spoken:saved",
      "voice:turn:slot",
      "voice:spoken:saved",
      "voice:turn:slot",
      "voice:spoken:saved",
    ]);
    // The CLI's progress lines, from its events alone.
    const plain = createPlainLines({ cwd: result.runDir });
    const printed = events.flatMap((event) => plain(event));
    expect(printed).toContain(
      `[open] saved voices/open-0.wav (${formatBytes(savedBytes(events, "open"))})`,
    );
    // The report: its cost row, its work on the timeline, its files among the run's media.
    const { file } = await writeReport(result.runDir);
    const html = readFileSync(file, "utf8");
    expect(html).toMatch(/data-step="middle".*?<td class="num made">1 voice line<\/td>/s);
    expect(html).toMatch(/<tr class="total">.*?<td class="num made">3 voice lines<\/td>/s);
    expect(html).toContain('class="swatch p-work');
    expect(html).toMatch(/<span class="swatch p-work w-\d p-voice"><\/span>voice/);
    expect(html).toContain("voices/close-0.wav");
  });

  it("waits on a queue of its own on the workers, its slots account-wide", async () => {
    const artifacts = mkdtempSync(join(tmpdir(), "reelsmith-voice-"));
    const { runId } = await submitRun(coordinator, {
      pipeline: parse(fanOut),
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts,
      cache: false,
      stepKinds,
      catalogs,
    });
    const result = await followRun(coordinator, runId);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    expect(result.totals.made).toEqual({ "voice lines": 3 });
    expect(result.totals.credits).toBe(total);
    const service = serviceAccount(simulator.url, { apiKey: simulator.apiKey }).key;
    const units = await coordinator.dbos.listWorkflows({
      workflow_id_prefix: `${runId}:1:say:`,
      loadInput: false,
      loadOutput: false,
    });
    expect(units.map((unit) => [unit.status, unit.queueName])).toEqual(
      lines.map(() => ["SUCCESS", `reelsmith-voices-units-${service}`]),
    );
    // Each unit took one of the account's slots of its queue, on that queue.
    const slots = await coordinator.dbos.listWorkflows({
      workflow_id_prefix: `slot:${runId}:1:say:`,
      loadInput: false,
      loadOutput: false,
    });
    expect(slots.map((slot) => slot.queueName)).toEqual(
      lines.map(() => `reelsmith-voices-${service}`),
    );
  });
});

/** The bytes of the file a unit saved, as its progress said. */
function savedBytes(events: readonly RunEvent[], step: string): number {
  for (const event of events)
    if (event.type === "unit.progress" && event.stage === "saved" && event.step === step)
      return event.bytes;
  return -1;
}

/** The pipeline, in a file of its own (a run's messages point at its lines). */
function pipelineFile(model?: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "reelsmith-voice-")), "voices.yaml");
  writeFileSync(file, source(model));
  return file;
}

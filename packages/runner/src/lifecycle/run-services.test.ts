import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { priceUnitsSection } from "@reelsmith/core/catalog";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SubPipelineDepthError } from "../errors/sub-pipeline-depth-error.js";
import { SubPipelineFailedError } from "../errors/sub-pipeline-failed-error.js";
import { emptyTotals, type RunTotals } from "../events/run-event.js";
import { createBudget } from "../executor/budget.js";
import { queueSlots } from "../executor/queue-slots.js";
import { replayJournal } from "../executor/replay-journal.js";
import { stepReaders } from "../executor/step-readers.js";
import type { JournalRecord } from "../journal/journal-record.js";
import { MAX_SUB_PIPELINE_DEPTH } from "../pipeline/sub-pipelines.js";
import type { RunOptions, RunResult } from "../run-options.js";
import { kindsByName } from "../steps/registry.js";
import { createRunServices, type RunServicesOf, type WrittenSpec } from "./run-services.js";
import type { SubRunHost } from "./sub-runs.js";

const NARRATED = fileURLToPath(
  new URL("../../../../examples/narrated/pipeline.yaml", import.meta.url),
);
const kinds = kindsByName();

/** A host whose `runPipeline` keeps what it was given and answers `result`. */
function recordingHost(
  result: Partial<Omit<RunResult, "durationMs">>,
  host: Partial<SubRunHost> = {},
): SubRunHost & { calls: { file: string; options: RunOptions }[] } {
  const calls: { file: string; options: RunOptions }[] = [];
  return {
    calls,
    depth: 0,
    trip: {},
    runDir: () => "/runs/parent",
    slots: queueSlots(kinds.values()),
    client: {} as SubRunHost["client"],
    runPipeline: async (file, options) => {
      calls.push({ file, options });
      return {
        status: "succeeded",
        runId: "sub-run",
        runDir: String(options.runDir),
        outputs: {},
        totals: { ...emptyTotals(), credits: 7 },
        steps: {},
        durationMs: 1,
        ...result,
      };
    },
    ...host,
  };
}

function services(of: Partial<RunServicesOf> = {}) {
  return createRunServices({
    runId: "run-1",
    pipelineDir: "/pipelines",
    budget: createBudget(100, () => {}),
    pipeline: { spec: { steps: [] } },
    kinds,
    ...of,
  });
}

describe("createRunServices", () => {
  it("tells who reads each step's outputs the same from the pipeline's text as from its spec", () => {
    const source = readFileSync(NARRATED, "utf8");
    const fromSpec = services({ pipeline: { spec: parse(source) } });
    const fromText = services({ pipeline: { source } });
    const steps = (parse(source) as { steps: { id: string }[] }).steps.map((step) => step.id);
    expect(steps.length).toBeGreaterThan(10);
    for (const step of steps)
      expect(fromText.readersOf?.(step)).toEqual(fromSpec.readersOf?.(step));
    // The join is read by the mix only, an ffmpeg pass: what makes it an intermediate.
    expect(fromText.readersOf?.("joined").map((reader) => [reader.step, reader.kind])).toEqual([
      ["mixed", "ffmpeg"],
    ]);
  });

  it("takes who reads each step's outputs from the host's own keeping when it has one", () => {
    const spec = parse(readFileSync(NARRATED, "utf8")) as WrittenSpec;
    const asked: unknown[] = [];
    const made = services({
      pipeline: {
        read: () => spec,
        readers: (given) => {
          asked.push(given);
          return stepReaders(spec, given);
        },
      },
    });
    expect(made.readersOf?.("joined").map((reader) => reader.step)).toEqual(["mixed"]);
    expect(made.readersOf?.("mixed").length).toBeGreaterThan(0);
    // Asked once, with the run's kinds.
    expect(asked).toEqual([kinds]);
  });

  it("reads the pipeline's text only when a kind first asks, and says what is wrong with it", () => {
    const made = services({ pipeline: { source: "name: x\nsteps: 3\n" } });
    expect(made.runId).toBe("run-1");
    expect(() => made.readersOf?.("a")).toThrow(/expected a mapping with a `steps` list/);
  });

  it("gives the kinds the catalogs in credits and sub-runs the catalogs whole", async () => {
    const catalogs = {
      video_models: [{ id: "clip", price: { per_second: 1 } }],
      [priceUnitsSection]: [{ id: "clip", unit: "usd", provider: "fal" }],
    };
    const host = recordingHost({});
    const made = services({ catalogs, subRuns: host });
    // A price in usd with no rate is never added to credits.
    expect(made.catalogs?.video_models).toEqual([{ id: "clip" }]);
    await made.runSubPipeline(
      "tool.yaml",
      {},
      { signal: new AbortController().signal, name: "s-t" },
    );
    expect(host.calls[0]?.options.subRunOf?.catalogs).toBe(catalogs);
  });

  it("claims the jobs a resumed run holds, and those journaled elsewhere once it reads the journal again", async () => {
    const spec = {
      steps: [{ id: "clips", for_each: [1, 2, 3], video: { prompt: "a fox" } }],
    } as unknown as WrittenSpec;
    const fact = (index: number, jobId: string): JournalRecord => ({
      type: "fact",
      step: "clips",
      index,
      name: "video.submitted",
      data: { jobId },
    });
    const journal: JournalRecord[] = [{ type: "step.start", step: "clips" }, fact(0, "job-a")];
    let reads = 0;
    const made = services({
      pipeline: { read: () => spec },
      previous: replayJournal(journal),
      journalNow: async () => {
        reads += 1;
        return replayJournal(journal);
      },
    });
    const claimed = made.claimedJobs;
    expect(claimed?.has("job-a")).toBe(true);
    // Another process journals a job of item 1: unknown here until the journal is read again.
    journal.push(fact(1, "job-b"));
    expect(claimed?.has("job-b")).toBe(false);
    await claimed?.refresh?.();
    expect(reads).toBe(1);
    expect(claimed?.has("job-b")).toBe(true);
    // One submitted in this process is claimed at once.
    claimed?.add("job-c");
    expect(claimed?.has("job-c")).toBe(true);
    // A host that journals in its own process alone has nothing to read again.
    expect(services({ pipeline: { spec } }).claimedJobs?.refresh).toBeUndefined();
  });

  it("refuses a sub-pipeline where the host runs none (a DBOS run's own process)", async () => {
    await expect(
      services().runSubPipeline("tool.yaml", {}, { signal: AbortSignal.abort(), name: "s-t" }),
    ).rejects.toThrow("sub-pipelines run inside their unit's worker");
  });
});

describe("sub-runs through the host's runPipeline", () => {
  it("runs each one level deeper in a directory of its own, sharing the budget, slots, trip and fence, and counts what it spent", async () => {
    const fence = async () => {};
    const budget = createBudget(100, () => {});
    const host = recordingHost({ outputs: { summary: "done" } }, { depth: 2, unit: "scenes-3" });
    const made = services({ budget, fence, autoApprove: true, subRuns: host });
    const spent: RunTotals[] = [];
    const signal = new AbortController().signal;
    const sub = { signal, name: "draft-summarize", onTotals: (t: RunTotals) => spent.push(t) };
    expect(await made.runSubPipeline("tools/summarize.yaml", { text: "a" }, sub)).toEqual({
      summary: "done",
    });
    await made.runSubPipeline("tools/summarize.yaml", { text: "b" }, sub);
    expect(host.calls.map((call) => call.file)).toEqual([
      path.resolve("/pipelines/tools/summarize.yaml"),
      path.resolve("/pipelines/tools/summarize.yaml"),
    ]);
    expect(host.calls.map((call) => call.options.runDir)).toEqual([
      path.join("/runs/parent", "subruns", "draft-summarize-scenes-3-1"),
      path.join("/runs/parent", "subruns", "draft-summarize-scenes-3-2"),
    ]);
    const first = host.calls[0]?.options;
    expect(first?.inputs).toEqual({ text: "a" });
    expect(first?.signal).toBe(signal);
    expect(first?.autoApprove).toBe(true);
    expect(first?.subRunOf).toMatchObject({ depth: 3, budget, fence, slots: host.slots });
    expect(first?.subRunOf?.trip).toBe(host.trip);
    expect(spent.map((totals) => [totals.credits, totals.cachedSteps])).toEqual([
      [7, 0],
      [7, 0],
    ]);
  });

  it("names a local run's sub-runs by the tool and a count of the run's", async () => {
    const host = recordingHost({});
    const made = services({ subRuns: host });
    await made.runSubPipeline("t.yaml", {}, { signal: AbortSignal.abort(), name: "a-b" });
    expect(host.calls[0]?.options.runDir).toBe(path.join("/runs/parent", "subruns", "a-b-1"));
  });

  it("fails the tool with SubPipelineFailedError when the sub-run did not succeed", async () => {
    const made = services({ subRuns: recordingHost({ status: "failed" }) });
    const error = await made
      .runSubPipeline("t.yaml", {}, { signal: AbortSignal.abort(), name: "a-b" })
      .catch((caught: unknown) => caught);
    expect(SubPipelineFailedError.isInstance(error)).toBe(true);
  });

  it("refuses one nested too deep before the host runs it, and tells every run above through the trip", async () => {
    const host = recordingHost({}, { depth: MAX_SUB_PIPELINE_DEPTH });
    const made = services({ subRuns: host });
    const error = await made
      .runSubPipeline("t.yaml", {}, { signal: AbortSignal.abort(), name: "a-b" })
      .catch((caught: unknown) => caught);
    expect(SubPipelineDepthError.isInstance(error)).toBe(true);
    expect(host.trip.error).toBe(error);
    expect(host.calls).toHaveLength(0);
  });
});

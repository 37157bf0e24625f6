import { join } from "node:path";
import { probe } from "@reelsmith/media";
import type { FaultRule } from "@reelsmith/simulator";
import { afterEach, describe, expect, it } from "vitest";
import { readJournal } from "../src/journal/journal.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const pipeline = {
  name: "fault-matrix",
  defaults: { video: { model: "reel-video-2-lite", seconds: 1, size: "720x480" } },
  steps: [
    {
      id: "clips",
      for_each: ["a lantern", "a fox", "a lake"],
      retry: { attempts: 8, backoff_ms: 1 },
      video: { prompt: "Scene ${{ index }}: ${{ item }}", output: "clips/${{ index }}.mp4" },
    },
    { id: "final", ffmpeg: { concat: "${{ steps.clips.outputs.*.file }}", output: "final.mp4" } },
  ],
};

const p = 0.25;
const every = (kind: FaultRule["kind"], value?: number): FaultRule[] =>
  ["videos.create", "videos.list", "videos.retrieve", "videos.content"].map((target) => ({
    kind,
    target,
    probability: p,
    ...(value === undefined ? {} : { value }),
  }));

// Seeded: the simulator draws every fault from its seed.
const matrix: [string, FaultRule[]][] = [
  ["429", every("429", 0)],
  ["500", every("500")],
  ["503", every("503")],
  ["dropped answers", every("drop")],
  ["stalls", every("stall", 50)],
  ["failed jobs", [{ kind: "fail-job", target: "*", probability: p }]],
  [
    "mixed",
    [
      ...every("429", 0),
      ...every("503"),
      ...every("drop"),
      ...every("stall", 50),
      { kind: "fail-job" as const, target: "*", probability: p },
    ].map((rule): FaultRule => ({ ...rule, probability: 0.08 })),
  ],
];

describe("fault matrix: no job paid twice, the final video complete", () => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it.each(matrix)("%s", async (_name, rules) => {
    service = await startTestService({ seed: 11, faults: { rules } });
    const result = await runPipeline(
      pipeline,
      service.options({ cache: false, runDir: join(service.root, "run") }),
    );
    const stats = service.simulator.stats();
    expect(result.error?.message).toBeUndefined();
    expect(result.status).toBe("succeeded");
    // The faults did fire (failed jobs are counted as such, the rest as injected faults).
    const injected = Object.values(stats.faultsInjected).reduce((a, b) => a + b, 0);
    expect(injected + stats.videoJobs.failed).toBeGreaterThan(0);
    // Every job the service made is in the journal (none forgotten) ...
    const journal = readJournal(join(result.runDir, "journal.jsonl"));
    const journaled = new Set(
      journal
        .filter((r) => r.type === "fact" && r.name === "video.submitted")
        .map((r) => String((r.data as { jobId: string }).jobId)),
    );
    expect(journaled.size).toBe(stats.videoJobs.created);
    // ... one completed, paid job per scene, and the credits charged are exactly theirs.
    const clips = result.steps.clips?.outputs as { id: string; credits: number; file: string }[];
    expect(new Set(clips.map((c) => c.id)).size).toBe(3);
    expect(stats.videoJobs.completed).toBe(3);
    expect(stats.creditsCharged).toBe(clips.reduce((sum, c) => sum + c.credits, 0));
    const final = await probe(join(result.runDir, "final.mp4"));
    expect(final.duration).toBeGreaterThan(2.5);
  });
});

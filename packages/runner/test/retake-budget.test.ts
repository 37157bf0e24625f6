import { existsSync } from "node:fs";
import { join } from "node:path";
import { modelCatalogs, videoModels } from "@reelsmith/simulator/catalog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJournal } from "../src/journal/journal.js";
import { ledgerOf } from "../src/ledger/ledger.js";
import { runPipeline } from "../src/run-pipeline.js";
import { pickTake } from "../src/takes/pick-take.js";
import { retakeItem } from "../src/takes/retake-item.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

// The service lists its models without a price: the budget learns it from the first job.
const unpriced = videoModels.map(({ price: _price, ...model }) => model);

describe("a retake of a run its budget stopped", () => {
  let service: TestService;
  let runDir: string;
  beforeAll(async () => {
    service = await startTestService();
    const result = await runPipeline(
      {
        name: "budget",
        defaults: { video: { model: "reel-video-2-lite", seconds: 1, size: "720x480" } },
        max_credits: 10,
        steps: [
          {
            id: "clips",
            for_each: ["one", "two", "three", "four"],
            max_parallel: 4,
            video: { prompt: "${{ item }}", output: "clips/${{ index }}.mp4" },
          },
          {
            id: "film",
            ffmpeg: { concat: "${{ steps.clips.outputs.*.file }}", output: "film.mp4" },
          },
        ],
      },
      service.options({ cache: false, catalogs: { ...modelCatalogs, video_models: unpriced } }),
    );
    expect(result.status).toBe("budget_reached");
    runDir = result.runDir;
  });
  afterAll(() => service.close());

  it("within its budget, makes only the retaken item and leaves the refused ones unmade", async () => {
    const before = service.simulator.stats().videoJobs.created;
    expect(before).toBe(2);
    const made = [0, 1, 2, 3].filter((index) => existsSync(join(runDir, "clips", `${index}.mp4`)));
    expect(made).toHaveLength(2);
    const [retaken] = made as [number];
    // Its budget is spent (8 of 10; the price is known now): a retake is refused by it.
    const refused = await retakeItem(
      runDir,
      { step: "clips", index: retaken, prompt: "one, at night" },
      service.options(),
    );
    expect(refused.status).toBe("budget_reached");
    expect(refused.error?.code).toBe("budget_reached");
    expect(service.simulator.stats().videoJobs.created).toBe(before);
    // With a larger budget: exactly one job, for the retaken item only.
    const result = await retakeItem(
      runDir,
      { step: "clips", index: retaken, prompt: "one, at night" },
      service.options({ maxCredits: 100 }),
    );
    expect(service.simulator.stats().videoJobs.created).toBe(before + 1);
    expect(existsSync(join(runDir, "clips", `${retaken}.take-1.mp4`))).toBe(true);
    expect(existsSync(join(runDir, "clips", `${retaken}.take-2.mp4`))).toBe(true);
    // The step still lacks the refused items: the film is not made, the run is not done.
    expect(result.status).toBe("failed");
    expect(result.steps.film?.status).toBe("skipped");
    const ledger = ledgerOf(readJournal(join(runDir, "journal.jsonl")));
    expect(ledger.total.credits).toBe(service.simulator.stats().creditsCharged);
    // A pick pays nothing either; resume then makes the rest and the film.
    const picked = await pickTake(
      runDir,
      { step: "clips", index: retaken, take: 1 },
      service.options(),
    );
    expect(picked.steps.film?.status).toBe("skipped");
    expect(service.simulator.stats().videoJobs.created).toBe(before + 1);
    const resumed = await runPipeline(
      undefined,
      service.options({ resume: runDir, maxCredits: 100 }),
    );
    expect(resumed.error).toBeUndefined();
    expect(resumed.status).toBe("succeeded");
    expect(service.simulator.stats().videoJobs.created).toBe(before + 3);
    expect(existsSync(join(runDir, "film.mp4"))).toBe(true);
  });
});

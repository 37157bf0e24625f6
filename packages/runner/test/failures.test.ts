// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions

import { modelCatalogs, videoModels } from "@reelsmith/simulator/catalog";
import { afterEach, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const defaults = {
  video: { model: "reel-video-2-lite", seconds: 1, size: "720x480" },
  chat: { model: "reel-chat-1" },
};

describe("failures, budget and faults", () => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("reports a failed clip with the job's error, and honours if and continue_on_error", async () => {
    service = await startTestService();
    const options = service.options({ cache: false });
    const result = await runPipeline(
      {
        name: "failing",
        inputs: { never: { type: "string", default: "no" } },
        defaults,
        steps: [
          { id: "skipped", if: "${{ inputs.never == 'yes' }}", chat: { prompt: "never asked" } },
          { id: "optional", continue_on_error: true, video: { prompt: "a storm #fail" } },
          {
            id: "clips",
            for_each: ["a calm lake", "a burning ship #fail"],
            video: { prompt: "${{ item }}" },
          },
          { id: "after", needs: ["clips"], chat: { prompt: "not reached" } },
        ],
      },
      options,
    );
    expect(result.status).toBe("failed");
    expect(result.steps.skipped?.status).toBe("skipped");
    expect(result.steps.optional).toMatchObject({ status: "failed", continued: true });
    expect(result.steps.clips?.status).toBe("failed");
    expect(result.steps.after?.status).toBe("skipped");
    expect(result.error?.message).toMatch(/step "clips" item 1 failed: Video job \S+ failed: /);
    const itemEnds = options.events.filter((e) => e.type === "item.end" && e.step === "clips");
    expect(itemEnds.map((e) => (e.type === "item.end" ? [e.index, e.status] : []))).toEqual(
      expect.arrayContaining([
        [0, "succeeded"],
        [1, "failed"],
      ]),
    );
    // The successful clip is kept: its outputs are in the array, the failed item is null.
    const outputs = result.steps.clips?.outputs as ({ file: string } | null)[];
    expect(outputs[0]?.file).toMatch(/clips[\\/]0\.mp4$/);
    expect(outputs[1]).toBeNull();
    expect(service.simulator.stats().chatCompletions).toBe(0);
  });

  it("learns an unpriced model's price from its first job, then admits jobs within the budget", async () => {
    service = await startTestService();
    // The service lists its models without a price: it reports a job's credits at its end.
    const unpriced = videoModels.map(({ price: _price, ...model }) => model);
    const options = service.options({
      cache: false,
      slots: { video: 4 },
      catalogs: { ...modelCatalogs, video_models: unpriced },
    });
    const result = await runPipeline(
      {
        name: "budget",
        defaults,
        max_credits: 10,
        steps: [
          {
            id: "clips",
            for_each: ["one", "two", "three", "four"],
            max_parallel: 4,
            video: { prompt: "${{ item }}" },
          },
        ],
      },
      options,
    );
    // Nothing certain to refuse: the estimate knows the units but not their price.
    const estimate = options.events.find((e) => e.type === "run.estimate");
    expect(estimate?.type === "run.estimate" && estimate.estimate).toMatchObject({
      credits: 0,
      complete: false,
      steps: { clips: { units: 4 } },
    });
    expect(result.status).toBe("budget_reached");
    expect(result.error?.code).toBe("budget_reached");
    // The first job went alone; once it taught its price (4), one more fitted in 10.
    expect(service.simulator.stats().videoJobs.created).toBe(2);
    const submitted = options.events.flatMap((e, at) =>
      e.type === "unit.progress" && e.stage === "submitted" ? [at] : [],
    );
    const firstDone = options.events.findIndex(
      (e) => e.type === "unit.progress" && e.stage === "status" && e.status === "completed",
    );
    expect(submitted).toHaveLength(2);
    expect(firstDone).toBeGreaterThan(submitted[0] ?? Infinity);
    expect(submitted[1]).toBeGreaterThan(firstDone);
    expect(result.totals.credits).toBe(service.simulator.stats().creditsCharged);
    expect(result.totals.credits).toBe(8);
  });

  it("finishes despite injected 429 and 503 answers", async () => {
    service = await startTestService({
      faults: "429@chat:#1,503@videos.create:#1,503@videos.retrieve:#2,429@videos.content:#1",
    });
    const options = service.options({ cache: false });
    const result = await runPipeline(
      {
        name: "faults",
        defaults,
        steps: [
          { id: "plan", chat: { prompt: "Name a colour" } },
          { id: "clip", video: { prompt: "A ${{ steps.plan.outputs.text }} sky" } },
        ],
      },
      options,
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const stats = service.simulator.stats();
    expect(Object.values(stats.faultsInjected).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(
      3,
    );
    expect(stats.videoJobs.created).toBe(1);
  });

  it("does not resubmit a lost submission it cannot settle, and says how to reconcile", async () => {
    // The answer to the submission is lost and the job list keeps failing: nothing can tell
    // whether a job was made, so nothing is sent again.
    service = await startTestService({
      faults: {
        rules: [
          { kind: "drop", target: "videos.create", sequence: [1] },
          { kind: "503", target: "videos.list", probability: 1 },
        ],
      },
    });
    const result = await runPipeline(
      {
        name: "ambiguous",
        defaults,
        steps: [{ id: "clip", retry: { attempts: 3, backoff_ms: 1 }, video: { prompt: "a fox" } }],
      },
      service.options({ cache: false }),
    );
    expect(result.status).toBe("failed");
    expect(result.error?.message).toContain("cannot be settled");
    expect(result.error?.message).toContain("Idempotency-Key");
    expect(result.error?.message).toContain("--resubmit-lost");
    const posts = service.simulator.stats().requests["POST /v1/videos"] ?? {};
    expect(Object.values(posts).reduce((a, b) => a + b, 0)).toBe(1);
    expect(service.simulator.stats().videoJobs.created).toBe(1);
  });
});

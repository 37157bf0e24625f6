import { join } from "node:path";
import { probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import {
  filesContaining,
  maxVideosInFlight,
  startTestService,
  type TestService,
} from "./helpers/simulator.js";

const pipeline = join(import.meta.dirname, "fixtures", "storyboard.yaml");

describe("storyboard pipeline against the simulator", () => {
  let service: TestService;
  beforeAll(async () => {
    // Jobs last ~0.5 s, so two surely overlap even on a loaded machine: the limit is what
    // keeps a third out, and the test proves it is reached, not only respected.
    service = await startTestService({ timeScale: 0.2 });
  });
  afterAll(() => service.close());

  it("turns a story into scenes, clips (at most maxVideos in flight) and one joined MP4", async () => {
    const options = service.options({ slots: { video: 2 } });
    const result = await runPipeline(pipeline, options);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    const stats = service.simulator.stats();
    expect(stats.videoJobs.created).toBe(3);
    expect(stats.chatCompletions).toBe(1);
    const inFlight = maxVideosInFlight(options.events);
    expect(inFlight).toBeLessThanOrEqual(2);
    expect(inFlight).toBe(2);
    const clips = result.steps.clips?.outputs as {
      file: string;
      duration: number;
      credits: number;
    }[];
    expect(clips).toHaveLength(3);
    expect(clips.map((c) => c.file)).toEqual(
      [0, 1, 2].map((i) => join(result.runDir, "clips", `scene-${i}.mp4`)),
    );
    const durations = await Promise.all(clips.map(async (c) => (await probe(c.file)).duration));
    const final = await probe(String(result.outputs.video));
    expect(final.duration).toBeCloseTo(
      durations.reduce((a, b) => a + b, 0),
      1,
    );
    expect(result.totals.made.videos).toBe(3);
    expect(result.outputs.sheet).toBe(join(result.runDir, "contact-sheet.png"));
    expect((await probe(String(result.outputs.poster))).width).toBe(320);
    expect(options.events.some((e) => e.type === "unit.progress" && e.stage === "work")).toBe(true);
    expect(result.totals.credits).toBe(stats.creditsCharged);
    expect(result.totals.totalTokens).toBeGreaterThan(0);
    expect(
      options.events.filter((e) => e.type === "unit.progress" && e.stage === "status").length,
    ).toBeGreaterThanOrEqual(3);
    // Each clip's evaluated request (its scene's prompt) is in the event log.
    const requests = options.events.filter((e) => e.type === "step.request" && e.step === "clips");
    expect(requests).toHaveLength(3);
    const storyboard = result.steps.storyboard?.outputs as
      | { json: { scenes: unknown[] } }
      | undefined;
    const scenes = storyboard?.json.scenes ?? [];
    expect(scenes).toHaveLength(3);
    for (const request of requests) {
      if (request.type !== "step.request") continue;
      expect(request.kind).toBe("video");
      const scene = scenes[request.index ?? -1] as { description: string };
      expect(request.spec.prompt).toBe(`Scene ${request.index}: ${scene.description}`);
    }
    // Each clip's wait for a video slot ends with video.slot, before its submission.
    for (const index of [0, 1, 2]) {
      const seqOf = (type: string) =>
        options.events.find(
          (e) =>
            (e.type === type || (e.type === "unit.progress" && e.stage === type)) &&
            "index" in e &&
            e.step === "clips" &&
            e.index === index,
        )?.seq ?? Number.NaN;
      expect(seqOf("item.start")).toBeLessThan(seqOf("slot"));
      expect(seqOf("slot")).toBeLessThan(seqOf("submitted"));
    }

    // A second identical run is served from the cache: no new submission, no chat call. Its
    // estimate knows it before anything is sent: the storyboard's cached scenes give the
    // clips' prompts, whose results are cached too, so a budget below one clip is enough.
    const again = service.options({ slots: { video: 2 }, maxCredits: 1 });
    const second = await runPipeline(pipeline, again);
    expect(second.error).toBeUndefined();
    expect(second.status).toBe("succeeded");
    const estimate = again.events.find((e) => e.type === "run.estimate");
    expect(estimate?.type === "run.estimate" && estimate.estimate).toMatchObject({
      credits: 0,
      complete: true,
      steps: { clips: { units: 0, cached: 3, credits: 0 } },
    });
    expect(service.simulator.stats().videoJobs.created).toBe(3);
    expect(service.simulator.stats().chatCompletions).toBe(1);
    expect(second.totals.cachedSteps).toBe(2);
    expect(second.totals.credits).toBe(0);
    const secondFinal = await probe(String(second.outputs.video));
    expect(secondFinal.duration).toBeCloseTo(final.duration, 1);
    expect(second.runDir).not.toBe(result.runDir);

    // The API key is nowhere in what the runs wrote: run dirs, event logs, journals, cache.
    expect(filesContaining(service.root, service.simulator.apiKey)).toEqual([]);
  });
});

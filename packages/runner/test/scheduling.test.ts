// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "../src/events/run-event.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

describe("scheduling", () => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("a video waiting for a video slot holds no concurrency slot: chat runs meanwhile", async () => {
    // Video jobs that take hours of simulated time: the first one is still in flight when
    // the run is stopped, so the chat step can only have run beside the waiting videos.
    service = await startTestService({ timeScale: 1000 });
    const controller = new AbortController();
    const atChatEnd: { submitted: number; started: number }[] = [];
    const seen: RunEvent[] = [];
    const options = service.options({
      cache: false,
      concurrency: 2,
      slots: { video: 1 },
      signal: controller.signal,
      onEvent: (event) => {
        seen.push(event);
        if (event.type === "step.end" && event.step === "title") {
          atChatEnd.push({
            submitted: seen.filter((e) => e.type === "unit.progress" && e.stage === "submitted")
              .length,
            started: seen.filter((e) => e.type === "item.start" && e.step === "clips").length,
          });
          controller.abort();
        }
      },
    });
    const result = await runPipeline(
      {
        name: "starvation",
        defaults: {
          video: { model: "reel-video-2-lite", seconds: 4, size: "720x480" },
          chat: { model: "reel-chat-1" },
        },
        steps: [
          {
            id: "clips",
            for_each: ["one", "two", "three", "four"],
            video: { prompt: "${{ item }}" },
          },
          { id: "title", chat: { prompt: "A title for a film about a fox." } },
        ],
      },
      options,
    );
    expect(result.steps.title?.status).toBe("succeeded");
    // The chat step ran while every video had started: at most one in flight (or about to be
    // submitted), the others waiting for the video slot without holding a concurrency slot.
    expect(atChatEnd).toHaveLength(1);
    expect(atChatEnd[0]?.started).toBe(4);
    expect(atChatEnd[0]?.submitted).toBeLessThanOrEqual(1);
    expect(result.steps.clips?.status).toBe("cancelled");
    expect(service.simulator.stats().videoJobs.created).toBeLessThanOrEqual(1);
  });

  it("a long fan-out starts no more items than the run's slots can move", async () => {
    // 30 clips, 2 concurrency slots, 1 video slot: at most 2 × 2 + 1 items are under way at
    // once (each started item holds its context and request until it ends).
    service = await startTestService();
    let open = 0;
    let most = 0;
    const options = service.options({
      cache: false,
      concurrency: 2,
      slots: { video: 1 },
      onEvent: (event) => {
        if (event.type === "item.start") most = Math.max(most, ++open);
        if (event.type === "item.end") open -= 1;
      },
    });
    const result = await runPipeline(
      {
        name: "window",
        defaults: { video: { model: "reel-video-2-lite", seconds: 4, size: "720x480" } },
        steps: [
          {
            id: "clips",
            for_each: Array.from({ length: 30 }, (_, n) => `shot ${n}`),
            video: { prompt: "${{ item }}" },
          },
        ],
      },
      options,
    );
    expect(result.status).toBe("succeeded");
    expect(result.steps.clips?.outputs).toHaveLength(30);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(5);
  });
});

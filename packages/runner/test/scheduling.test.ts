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
    const submittedAtChatEnd: number[] = [];
    const seen: RunEvent[] = [];
    const options = service.options({
      cache: false,
      concurrency: 2,
      maxVideos: 1,
      signal: controller.signal,
      onEvent: (event) => {
        seen.push(event);
        if (event.type === "step.end" && event.step === "title") {
          submittedAtChatEnd.push(seen.filter((e) => e.type === "video.submitted").length);
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
    // The chat step ended while one video was in flight and the other three waited for it.
    expect(submittedAtChatEnd).toEqual([1]);
    const started = seen.filter((e) => e.type === "item.start" && e.step === "clips");
    expect(started).toHaveLength(4);
    expect(result.steps.clips?.status).toBe("cancelled");
    expect(service.simulator.stats().videoJobs.created).toBe(1);
  });
});

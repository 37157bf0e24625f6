// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunEvent } from "../src/events/run-event.js";
import { readJournal } from "../src/journal/journal.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

describe("scheduling", () => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it("a video waiting for a video slot holds no concurrency slot: chat runs meanwhile", async () => {
    // 3 concurrency slots, 1 video slot, and video jobs that take hours of simulated time:
    // the first clip's job holds a slot; with the chat's given back at its end, all four
    // clips can have started only if those waiting for the video slot gave theirs back (if
    // they held them, the fourth could never start). How far the clips got by the chat's end
    // depends on the order of the steps' first awaits, so a run where the chat ended before
    // the clips moved is run again; one with all four started settles it.
    for (let attempt = 1; attempt <= 8; attempt++) {
      service = await startTestService({ timeScale: 1000 });
      const controller = new AbortController();
      const seen: RunEvent[] = [];
      let atChatEnd: { started: number; submitted: number } | undefined;
      const options = service.options({
        cache: false,
        concurrency: 3,
        slots: { video: 1 },
        signal: controller.signal,
        onEvent: (event) => {
          seen.push(event);
          if (event.type === "step.end" && event.step === "title") {
            atChatEnd = {
              started: seen.filter((e) => e.type === "item.start" && e.step === "clips").length,
              submitted: seen.filter((e) => e.type === "unit.progress" && e.stage === "submitted")
                .length,
            };
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
      expect(result.steps.clips?.status).toBe("cancelled");
      // At most one job in flight the whole time: the others waited for the video slot.
      expect(atChatEnd?.submitted).toBeLessThanOrEqual(1);
      expect(service.simulator.stats().videoJobs.created).toBeLessThanOrEqual(1);
      if (atChatEnd?.started === 4) return;
      await service.close();
      service = undefined;
    }
    throw new Error("in 8 runs the four clips never all started by the chat's end");
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

  it("a plain step starts once it has a slot: the queued ones neither start nor journal early", async () => {
    service = await startTestService();
    const seen: RunEvent[] = [];
    const result = await runPipeline(
      {
        name: "queued",
        defaults: { chat: { model: "reel-chat-1" } },
        steps: Array.from({ length: 6 }, (_, n) => ({
          id: `s${n}`,
          chat: { prompt: `Say ${n}.` },
        })),
      },
      service.options({ cache: false, concurrency: 2, onEvent: (event) => seen.push(event) }),
    );
    expect(result.status).toBe("succeeded");
    // At most two steps are ever started and not yet past their unit: each starts after an
    // earlier one's unit ended (its usage said), never all six at the run's start.
    let running = 0;
    let most = 0;
    for (const event of seen) {
      if (event.type === "step.start") running += 1;
      if (event.type === "unit.progress" && event.stage === "usage") running -= 1;
      most = Math.max(most, running);
    }
    expect(most).toBe(2);
    expect(seen.filter((e) => e.type === "step.start")).toHaveLength(6);
    const journal = readJournal(join(result.runDir, "journal.jsonl"));
    expect(journal.filter((r) => r.type === "step.start")).toHaveLength(6);
    expect(journal.filter((r) => r.type === "step.end")).toHaveLength(6);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { referenceDialect } from "../dialects/reference/index.js";
import { createFaultInjector } from "../faults/fault-injector.js";
import { createStatsRecorder } from "../stats/simulator-stats.js";
import { validateVideoRequest } from "./validate-video-request.js";
import { createVideoService } from "./video-service.js";

describe("createVideoService timeline", () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  function setup() {
    const stats = createStatsRecorder();
    const closing = new AbortController();
    const videos = createVideoService({
      timeScale: 1,
      renderConcurrency: 1,
      directory: "/nonexistent",
      stats,
      faults: createFaultInjector(undefined, 0),
      closing: closing.signal,
      logger: undefined,
      baseUrl: () => "http://127.0.0.1:1",
      dialect: referenceDialect,
    });
    return { stats, videos };
  }

  it("moves pending → processing → completed on time (4 s reel-video-1: 2 s + 18 s)", async () => {
    const { stats, videos } = setup();
    const { job } = videos.create(
      validateVideoRequest({ model: "reel-video-1", prompt: "x", seconds: "4" }),
      undefined,
    );
    expect(videos.pollAfter(job)).toBe(5000);
    await vi.advanceTimersByTimeAsync(1999);
    expect(videos.get(job.id)?.status).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(videos.get(job.id)?.status).toBe("processing");
    await vi.advanceTimersByTimeAsync(17_999);
    expect(videos.get(job.id)?.status).toBe("processing");
    expect(videos.pollAfter(job)).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(videos.toJson(job)).toMatchObject({
      status: "completed",
      duration: 4,
      usage: { total_credits: 37 },
      progress: 100,
    });
    expect(videos.pollAfter(job)).toBeUndefined();
    expect(stats.snapshot()).toMatchObject({
      videoJobs: { created: 1, completed: 1 },
      creditsCharged: 37,
    });
    await videos.close();
  });

  it("completes once when a read sees the deadline before the timer fires", async () => {
    const { stats, videos } = setup();
    const { job } = videos.create(
      validateVideoRequest({
        model: "reel-video-2-lite",
        prompt: "x",
        seconds: "2",
        size: "854x480",
      }),
      "key",
    );
    vi.setSystemTime(Date.now() + 60_000); // the clock moves, timers have not run yet
    expect(videos.get(job.id)?.status).toBe("completed");
    await vi.runAllTimersAsync();
    expect(videos.get(job.id)?.status).toBe("completed");
    expect(
      videos.create(
        validateVideoRequest({
          model: "reel-video-2-lite",
          prompt: "x",
          seconds: "2",
          size: "854x480",
        }),
        "key",
      ).replayed,
    ).toBe(true);
    expect(stats.snapshot()).toMatchObject({
      videoJobs: { created: 1, completed: 1 },
      creditsCharged: 9,
    });
  });
});

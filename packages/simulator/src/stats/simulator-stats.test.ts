import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createStatsRecorder } from "./simulator-stats.js";

describe("simulator stats peaks", () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it("peakConcurrentJobs is the most jobs in flight at once, not the number created", () => {
    const stats = createStatsRecorder();
    stats.jobCreated("m");
    stats.jobCreated("m");
    stats.jobCompleted(3);
    stats.jobCreated("m");
    stats.jobFailed();
    stats.jobCreated("m");
    expect(stats.snapshot()).toMatchObject({
      jobsInFlight: 2,
      peakConcurrentJobs: 2,
      videoJobs: { created: 4 },
    });
    stats.jobCreated("m");
    expect(stats.snapshot().peakConcurrentJobs).toBe(3);
  });

  it("peakConcurrentRequests counts video jobs and queued requests held together", () => {
    const stats = createStatsRecorder();
    stats.jobCreated("m");
    stats.requestHeld();
    expect(stats.snapshot()).toMatchObject({ requestsInFlight: 2, peakConcurrentRequests: 2 });
    stats.jobCompleted(1);
    stats.requestReleased();
    stats.requestHeld();
    expect(stats.snapshot()).toMatchObject({
      requestsInFlight: 1,
      peakConcurrentRequests: 2,
      jobsInFlight: 0,
      peakConcurrentJobs: 1,
    });
  });

  it("peakRequestsPerMinute counts each route within a sliding 60 s window", () => {
    const stats = createStatsRecorder();
    for (let i = 0; i < 5; i++) {
      stats.request("POST /v1/videos", 200);
      vi.advanceTimersByTime(10_000);
    }
    // t = 50 s: five requests in the window.
    expect(stats.snapshot().peakRequestsPerMinute["POST /v1/videos"]).toBe(5);
    vi.advanceTimersByTime(30_000);
    // t = 80 s: the first three fell out of the window; two old + one new = 3, peak stays 5.
    stats.request("POST /v1/videos", 429);
    stats.request("GET /v1/models", 200);
    expect(stats.snapshot().peakRequestsPerMinute).toEqual({
      "POST /v1/videos": 5,
      "GET /v1/models": 1,
    });
    for (let i = 0; i < 4; i++) stats.request("POST /v1/videos", 200);
    // 2 + 1 + 4 = 7 within the last minute.
    expect(stats.snapshot().peakRequestsPerMinute["POST /v1/videos"]).toBe(7);
  });
});

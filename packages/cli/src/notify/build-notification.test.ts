import { describe, expect, it } from "vitest";
import type { RunEvent } from "../contracts/run-event.js";
import { failedEvents, storyboardEvents } from "../render/__fixtures__/storyboard-events.js";
import { buildNotification, MAX_TEXT_OUTPUT } from "./build-notification.js";
import { notificationStatus } from "./notification-status.js";
import { createRunFacts, creditsOf, foldRunFact } from "./run-facts.js";

function factsOf(events: RunEvent[]) {
  const facts = createRunFacts();
  for (const event of events) foldRunFact(facts, event);
  return facts;
}

describe("buildNotification", () => {
  it("summarises a succeeded run from its events, leaving out figures it did not report", () => {
    const notification = buildNotification({
      facts: factsOf(storyboardEvents),
      status: "succeeded",
      exitCode: 0,
      pipeline: { path: "/work/examples/storyboard/pipeline.yaml" },
      report: "/work/runs/20260101-100000-storyboard/report.html",
    });
    expect(notification).toEqual({
      schema: 1,
      event: "run.ended",
      status: "succeeded",
      text: "reelsmith: storyboard succeeded in 2.8 s, 16 credits (/work/runs/20260101-100000-storyboard)",
      exitCode: 0,
      pipeline: { name: "storyboard", path: "/work/examples/storyboard/pipeline.yaml" },
      runId: "20260101-100000-storyboard",
      runDir: "/work/runs/20260101-100000-storyboard",
      report: "/work/runs/20260101-100000-storyboard/report.html",
      resumed: false,
      startedAt: "2026-01-01T10:00:00.000Z",
      endedAt: "2026-01-01T10:00:02.810Z",
      durationMs: 2810,
      credits: { spent: 16, saved: 0 },
      tokens: 42,
      made: { videos: 2 },
      outputs: { video: "/work/runs/20260101-100000-storyboard/final.mp4" },
      files: { video: "/work/runs/20260101-100000-storyboard/final.mp4" },
    });
  });

  it("carries the error of a failed run and says it in its text", () => {
    const notification = buildNotification({
      facts: factsOf(failedEvents),
      status: "failed",
      exitCode: 1,
      pipeline: {},
    });
    expect(notification.error).toEqual({
      code: "video_job_failed",
      message: "video job video_x failed: content_policy",
    });
    expect(notification.text).toBe(
      "reelsmith: broken failed in 0.0 s, 0 credits: video job video_x failed: content_policy (/work/runs/r2)",
    );
    expect(notification.files).toEqual({});
  });

  it("describes a run that never started with what is known", () => {
    const notification = buildNotification({
      facts: createRunFacts(),
      status: "failed",
      exitCode: 2,
      pipeline: { path: "/work/p.yaml" },
      error: { code: "invalid_pipeline", message: "p.yaml:3:1 unknown field" },
      now: new Date("2026-01-01T00:00:00Z"),
    });
    expect(notification).toEqual({
      schema: 1,
      event: "run.ended",
      status: "failed",
      text: "reelsmith: /work/p.yaml failed: p.yaml:3:1 unknown field",
      exitCode: 2,
      pipeline: { path: "/work/p.yaml" },
      endedAt: "2026-01-01T00:00:00.000Z",
      outputs: {},
      files: {},
      error: { code: "invalid_pipeline", message: "p.yaml:3:1 unknown field" },
    });
  });

  it("makes relative output files absolute and cuts long texts", () => {
    const facts = factsOf(storyboardEvents);
    facts.outputs = { video: "final.mp4", story: "x".repeat(MAX_TEXT_OUTPUT + 10), count: 3 };
    const notification = buildNotification({
      facts,
      status: "succeeded",
      exitCode: 0,
      pipeline: {},
    });
    expect(notification.files).toEqual({
      video: "/work/runs/20260101-100000-storyboard/final.mp4",
    });
    expect(notification.outputs.count).toBe(3);
    expect(String(notification.outputs.story)).toMatch(
      /^x{4096}… \(cut: 4106 characters in all\)$/,
    );
  });

  it("reports a waiting run as run.waiting", () => {
    const notification = buildNotification({
      facts: createRunFacts(),
      status: "waiting",
      exitCode: 0,
      pipeline: { name: "review" },
    });
    expect(notification.event).toBe("run.waiting");
  });
});

describe("credit figures", () => {
  it("takes spent, estimated and saved from the events when they carry them, and only then", () => {
    expect(creditsOf({ totals: { credits: 36 } })).toEqual({ spent: 36 });
    expect(creditsOf({ totals: { credits: 36, estimatedCredits: 40, savedCredits: 12 } })).toEqual({
      spent: 36,
      estimated: 40,
      saved: 12,
    });
    expect(
      creditsOf({ credits: { spent: 5, estimated: 9, saved: 0 }, totals: { credits: 1 } }),
    ).toEqual({ spent: 5, estimated: 9, saved: 0 });
    expect(creditsOf({ totals: {} })).toBeUndefined();

    const withLedger = [...storyboardEvents];
    const end = withLedger.pop() as Extract<RunEvent, { type: "run.end" }>;
    withLedger.push({ ...end, totals: { ...end.totals, savedCredits: 8 } } as RunEvent);
    expect(factsOf(withLedger).credits).toEqual({ spent: 16, saved: 8 });
  });
});

describe("notificationStatus", () => {
  it("tells an interruption here from a cancellation elsewhere, and names a spent budget", () => {
    expect(notificationStatus({ runStatus: "succeeded" })).toBe("succeeded");
    expect(notificationStatus({ runStatus: "cancelled", interrupted: true })).toBe("interrupted");
    expect(notificationStatus({ runStatus: "cancelled" })).toBe("cancelled");
    expect(notificationStatus({ runStatus: "failed" })).toBe("failed");
    expect(notificationStatus({ runStatus: "failed", errorCategory: "budget" })).toBe(
      "budget_reached",
    );
    expect(notificationStatus({ runStatus: "failed", budgetReached: true })).toBe("budget_reached");
    expect(notificationStatus({ runStatus: "waiting" })).toBe("waiting");
  });
});

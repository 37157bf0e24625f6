import { describe, expect, it } from "vitest";
import {
  failedEvents,
  storyboardEvents,
  storyboardResult,
} from "./__fixtures__/storyboard-events.js";
import { createPlainRenderer } from "./plain-renderer.js";

function render(events = storyboardEvents, result = storyboardResult) {
  let text = "";
  const renderer = createPlainRenderer({
    out: { write: (t: string) => (text += t) },
    cwd: "/work",
  });
  renderer.note("using the built-in simulator");
  for (const event of events) renderer.event(event);
  renderer.end(result);
  return text;
}

describe("plain renderer", () => {
  it("prints one readable line per event worth reading, without escape codes", () => {
    const text = render();
    expect(text).not.toMatch(/\u001b/);
    const lines = text.split("\n");
    expect(lines[0]).toBe("using the built-in simulator");
    expect(lines).toContain("run storyboard: 3 steps, directory runs/20260101-100000-storyboard");
    expect(lines).toContain("[storyboard] done in 1.2s");
    expect(lines).toContain("[clips#0] video job video_a submitted");
    expect(lines).toContain("[clips#0] video job video_a processing (2 polls)");
    expect(lines).toContain(
      "[clips#1] saved runs/20260101-100000-storyboard/clips/scene-1.mp4 (2.5 MB)",
    );
    expect(lines).toContain(
      "[clips#1] attempt 1 failed (Rate limit reached (rate_limit_exceeded)), retrying in 500ms",
    );
    // Repeated polls with the same status, tokens and progress ticks are not worth a line.
    expect(lines.filter((line) => line.includes("video_a processing"))).toHaveLength(1);
    expect(text).not.toContain("a fox");
    expect(text).not.toContain("50%");
  });

  it("prints warnings but not debug lines (ffmpeg's command lines are for --json)", () => {
    const at = { seq: 99, time: "2026-01-01T10:00:02.000Z" };
    const text = render([
      ...storyboardEvents,
      { ...at, type: "log", level: "debug", step: "clips", message: "$ ffmpeg -i a.mp4 b.mp4" },
      { ...at, type: "log", level: "warn", step: "clips", message: "no font has ✱" },
    ]);
    expect(text).toContain("warn [clips]: no font has ✱");
    expect(text).not.toContain("ffmpeg -i");
  });

  it("ends with the summary table and the output path", () => {
    const text = render();
    expect(text).toMatch(/step\s+status\s+duration\s+tokens\s+spent\s+saved\s+estimate\n/);
    expect(text).toMatch(/storyboard\s+succeeded\s+1\.2s\s+42\s+-\s+-\s+-\n/);
    expect(text).toMatch(/clips\s+succeeded 2\/2\s+1\.3s\s+-\s+16\s+-\s+8\/item\n/);
    expect(text).toMatch(/total\s+succeeded\s+2\.8s\s+42\s+16\s+-\s+0\+\n/);
    expect(text).toContain("2 jobs submitted, 0 re-attached, 0 from cache");
    expect(text).toContain(
      "expected cost: at least 0 credits, the rest known at run time (budget 500)\n  clips  8 per item × N (N known at run time)\n",
    );
    expect(text.trimEnd().split("\n").at(-1)).toBe(
      "  video  runs/20260101-100000-storyboard/final.mp4",
    );
  });

  it("says which steps a resumed run reused", () => {
    const [start, ...rest] = storyboardEvents;
    const resumed = [
      { ...start!, resumed: true } as (typeof storyboardEvents)[number],
      ...rest.map((event) =>
        event.type === "step.end" && event.step === "storyboard"
          ? { ...event, reused: true, durationMs: 0 }
          : event,
      ),
    ];
    const text = render(resumed);
    expect(text).toContain("resume storyboard: 3 steps");
    expect(text).toContain("[storyboard] done before the interruption, reused");
    expect(text).toMatch(/storyboard\s+reused\s+-\s+42/);
  });

  it("says what happened before a step was kept: an approval, a take, an interruption", () => {
    const [start, ...rest] = storyboardEvents;
    const after = (resumedAfter: string) =>
      render([
        { ...start!, resumed: true, resumedAfter } as (typeof storyboardEvents)[number],
        ...rest.map((event) =>
          event.type === "step.end" && event.step === "storyboard"
            ? { ...event, reused: true, durationMs: 0 }
            : event,
        ),
      ]);
    expect(after("gate")).toContain("[storyboard] done before the approval, kept");
    expect(after("gate")).not.toContain("interruption");
    expect(after("take")).toContain("[storyboard] kept as it was (not retaken)");
    expect(after("interruption")).toContain("[storyboard] done before the interruption, reused");
    expect(after("failed")).toContain("[storyboard] done before the failure, reused");
    expect(after("budget")).toContain("[storyboard] done before the budget was reached, reused");
  });

  it("names the failing step and the service's error", () => {
    const text = render(failedEvents, {
      ...storyboardResult,
      status: "failed",
      runDir: "/work/runs/r2",
      outputs: {},
    });
    expect(text).toContain("[clips#0] video job video_x failed (1 poll)");
    expect(text).toContain(
      "[clips] failed: video job video_x failed: content_policy (video_job_failed)",
    );
    expect(text).toContain("run failed in 11ms");
  });
});

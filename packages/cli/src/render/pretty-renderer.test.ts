import { describe, expect, it } from "vitest";
import { storyboardEvents, storyboardResult } from "./__fixtures__/storyboard-events.js";
import { createPrettyRenderer, type FrameWriter, renderFrame } from "./pretty-renderer.js";
import { applyEvent, createRunView } from "./run-state.js";

function recorder() {
  const frames: string[] = [];
  const persisted: string[] = [];
  let done = false;
  const writer: FrameWriter = {
    update: (frame) => frames.push(frame),
    persist: (text) => persisted.push(text),
    done: () => {
      done = true;
    },
  };
  return { writer, frames, persisted, isDone: () => done };
}

function viewUntil(seq: number) {
  const view = createRunView();
  for (const event of storyboardEvents) if (event.seq <= seq) applyEvent(view, event);
  return view;
}

const seqOf = (predicate: (e: (typeof storyboardEvents)[number]) => boolean) =>
  storyboardEvents.find(predicate)!.seq;

describe("pretty renderer frames", () => {
  it("shows streamed chat tokens of a running chat step with its elapsed time", () => {
    const view = viewUntil(
      seqOf((e) => e.type === "unit.progress" && e.stage === "text" && e.text.includes("fox")),
    );
    const frame = renderFrame(view, {
      now: Date.parse("2026-01-01T10:00:00.500Z"),
      tick: 0,
      color: false,
    });
    expect(frame).toBe('⠋ storyboard chat 490ms “{"scenes": [{"description": "a fox"}]}”');
  });

  it("shows a fan-out's progress bar and each open video job with status and polls", () => {
    const view = viewUntil(seqOf((e) => e.type === "item.end" && e.index === 0));
    const frame = renderFrame(view, {
      now: Date.parse("2026-01-01T10:00:03.210Z"),
      tick: 1,
      color: false,
    });
    expect(frame.split("\n")).toEqual([
      "⠙ clips video 2.0s ████████░░░░░░░░ clips 1/2",
      "    #1 video_b submitted · 0 polls",
    ]);
  });

  it("shows a completed job's download progress", () => {
    const view = viewUntil(seqOf((e) => e.type === "unit.progress" && e.stage === "transfer"));
    const frame = renderFrame(view, {
      now: Date.parse("2026-01-01T10:00:01.760Z"),
      tick: 0,
      color: false,
    });
    expect(frame.split("\n")[1]).toBe(
      "    #0 video_a completed · 4 polls · downloading 1.0 kB of 2.0 kB",
    );
  });

  it("shows ffmpeg progress", () => {
    const view = viewUntil(
      seqOf((e) => e.type === "unit.progress" && e.stage === "work" && e.percent === 50),
    );
    const frame = renderFrame(view, {
      now: Date.parse("2026-01-01T10:00:03.530Z"),
      tick: 2,
      color: false,
    });
    expect(frame).toBe("⠹ final ffmpeg 1.0s ████████░░░░░░░░ 50%");
  });
});

describe("pretty renderer", () => {
  it("persists finished steps once, redraws the live area, and ends with the summary", () => {
    const { writer, frames, persisted, isDone } = recorder();
    let out = "";
    const renderer = createPrettyRenderer({
      out: { write: (t: string) => (out += t), isTTY: true, columns: 80 },
      cwd: "/work",
      frames: writer,
      now: () => Date.parse("2026-01-01T10:00:05Z"),
      tickMs: 0,
      color: false,
    });
    for (const event of storyboardEvents) renderer.event(event);
    renderer.end(storyboardResult);
    expect(persisted).toEqual([
      "storyboard → runs/20260101-100000-storyboard",
      "expected cost: at least 0 credits, the rest known at run time (budget 500)",
      "  clips  8 per item × N (N known at run time)",
      "✔ storyboard 1.2s",
      "↻ clips#1 attempt 1: Rate limit reached (rate_limit_exceeded)",
      "✔ clips 2/2 1.3s",
      "✔ final 270ms",
    ]);
    expect(frames.length).toBeGreaterThan(storyboardEvents.length - 1);
    expect(frames.at(-1)).toBe("");
    expect(isDone()).toBe(true);
    expect(out).toContain("run succeeded in 2.8s");
    expect(out.trimEnd().split("\n").at(-1)).toBe(
      "  video  runs/20260101-100000-storyboard/final.mp4",
    );
  });

  it("colours when asked", () => {
    const { writer, persisted } = recorder();
    const renderer = createPrettyRenderer({
      out: { write: () => {} },
      cwd: "/work",
      frames: writer,
      tickMs: 0,
      color: true,
    });
    for (const event of storyboardEvents) renderer.event(event);
    expect(persisted.join("\n")).toMatch(/\u001b\[32m✔/);
  });
});

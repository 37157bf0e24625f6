import { describe, expect, it } from "vitest";
import { createProgressTracker, type MediaProgress, parseProgressTime } from "./progress.js";

describe("parseProgressTime", () => {
  it("reads out_time lines and ignores the rest", () => {
    expect(parseProgressTime("out_time=00:01:02.500000")).toBe(62.5);
    expect(parseProgressTime("out_time=-00:00:00.023220")).toBe(0);
    expect(parseProgressTime("out_time_ms=1000")).toBeUndefined();
    expect(parseProgressTime("out_time=N/A")).toBeUndefined();
  });
});

describe("createProgressTracker", () => {
  it("reports percent of the whole output across several runs, monotonically", () => {
    const seen: MediaProgress[] = [];
    const tracker = createProgressTracker((p) => seen.push(p), 10);
    const first = tracker.window(0, 4);
    const second = tracker.window(4, 6);
    first("out_time=00:00:02.000000");
    first("out_time=00:00:09.000000"); // beyond its window: clamped to 4 s
    second("out_time=00:00:00.000000"); // 4 s again: not repeated
    second("out_time=00:00:03.000000");
    tracker.done();
    expect(seen.map((p) => p.percent)).toEqual([20, 40, 70, 100]);
    expect(seen.map((p) => p.timeSeconds)).toEqual([2, 4, 7, 10]);
  });
});

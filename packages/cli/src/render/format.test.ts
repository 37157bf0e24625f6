import { describe, expect, it } from "vitest";
import {
  budgetReachedLine,
  formatBytes,
  formatDuration,
  formatTable,
  lastLine,
  progressBar,
  stepLabel,
} from "./format.js";

describe("format helpers", () => {
  it("formats durations", () => {
    expect(formatDuration(250)).toBe("250ms");
    expect(formatDuration(1530)).toBe("1.5s");
    expect(formatDuration(125_000)).toBe("2m05s");
    expect(formatDuration(-1)).toBe("-");
  });
  it("formats bytes", () => {
    expect(formatBytes(12)).toBe("12 B");
    expect(formatBytes(1500)).toBe("1.5 kB");
    expect(formatBytes(2_500_000)).toBe("2.5 MB");
  });
  it("draws progress bars", () => {
    expect(progressBar(3, 6, 10)).toBe("█████░░░░░");
    expect(progressBar(0, 0, 4)).toBe("░░░░");
    expect(progressBar(9, 3, 4)).toBe("████");
  });
  it("labels items and aligns tables", () => {
    expect(stepLabel("clips", 2)).toBe("clips#2");
    expect(stepLabel("final")).toBe("final");
    expect(
      formatTable(
        [
          ["a", "bb"],
          ["ccc", "1"],
        ],
        { rightAlign: [1] },
      ),
    ).toBe("a    bb\nccc   1");
    expect(lastLine("one\ntwo three\n", 6)).toBe("…three");
  });
});

describe("budgetReachedLine", () => {
  it("says the next request did not fit when the budget stopped below its figure", () => {
    expect(budgetReachedLine(0, 10)).toBe(
      "budget reached: 0 of 10 credits spent, and the next paid request's price did not fit in the rest (requests in flight hold theirs)",
    );
    expect(budgetReachedLine(12, 10)).toBe("budget reached: 12 of 10 credits");
  });
});

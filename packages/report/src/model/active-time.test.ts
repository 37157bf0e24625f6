import { describe, expect, it } from "vitest";
import { activeTime } from "./active-time.js";

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 10, 0, second)).toISOString();
const hour = 3600;

describe("activeTime", () => {
  it("adds the sessions' lengths, not the hours between them", () => {
    const journal = [
      { type: "run.start", time: at(0) },
      { type: "step.start", step: "a", time: at(1) },
      { type: "run.end", status: "cancelled", time: at(3) },
      { type: "run.resume", time: at(hour) },
      { type: "step.end", step: "a", time: at(hour + 1) },
      { type: "run.end", status: "succeeded", time: at(hour + 2) },
    ];
    // 3 s and 2 s of work; the hour between the sessions is counted apart.
    expect(activeTime(journal)).toEqual({ ms: 5_000, sessions: 2, betweenMs: 3_597_000 });
  });

  it("counts a session stopped without run.end up to its last record", () => {
    const journal = [
      { type: "run.start", time: at(0) },
      { type: "step.start", step: "a", time: at(4) },
      { type: "run.resume", time: at(2 * hour) },
      { type: "run.end", status: "succeeded", time: at(2 * hour + 1) },
    ];
    expect(activeTime(journal)).toEqual({ ms: 5_000, sessions: 2, betweenMs: 7_196_000 });
  });

  it("knows nothing of a journal without a start or times", () => {
    expect(activeTime([])).toBeUndefined();
    expect(activeTime([{ type: "run.start" }])).toBeUndefined();
  });
});

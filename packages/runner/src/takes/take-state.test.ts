import { describe, expect, it } from "vitest";
import { replayJournal } from "../executor/replay-journal.js";
import type { JournalRecord } from "../journal/journal-record.js";
import { currentTake, takesOf } from "./take-state.js";

const clip = (path: string, sha256: string) => ({ file: { path, sha256 } });
/** A fan-out item made once (job a), then retaken (job b). */
const retaken: JournalRecord[] = [
  { type: "step.start", step: "clips" },
  { type: "fact", step: "clips", index: 1, name: "video.submitted", data: { jobId: "a" } },
  {
    type: "item.end",
    step: "clips",
    index: 1,
    outputs: { file: "/r/clips/1.mp4" },
    artifacts: clip("clips/1.mp4", "aaa"),
  },
  { type: "step.end", step: "clips", outputs: [null, { file: "/r/clips/1.mp4" }] },
  {
    type: "take",
    step: "clips",
    index: 1,
    take: 1,
    prompt: "a fox",
    jobId: "a",
    files: clip("clips/1.take-1.mp4", "aaa"),
  },
  { type: "take.start", step: "clips", index: 1, take: 2, request: { prompt: "a wolf" } },
];

describe("replay of take records", () => {
  it("starts a new take empty and keeps the one it replaces in the history", () => {
    const state = replayJournal(retaken);
    const step = state.steps.get("clips");
    const item = step?.items.get(1);
    if (!step || !item) throw new Error("no item");
    // The step is to be made again; the new take has no outputs and no facts (a new job).
    expect(step.status).toBe("running");
    expect(item).toMatchObject({ status: "running", outputs: undefined, facts: {} });
    expect(currentTake(step, item, 1)).toMatchObject({ take: 2, request: { prompt: "a wolf" } });
    const [first] = takesOf(step, item, 1);
    expect(first).toMatchObject({
      take: 1,
      status: "succeeded",
      prompt: "a fox",
      jobId: "a",
      facts: { "video.submitted": { jobId: "a" } },
      kept: clip("clips/1.take-1.mp4", "aaa"),
    });
  });

  it("puts a kept take back on pick, with its outputs, hashes and facts", () => {
    const state = replayJournal([
      ...retaken,
      { type: "fact", step: "clips", index: 1, name: "video.submitted", data: { jobId: "b" } },
      {
        type: "item.end",
        step: "clips",
        index: 1,
        outputs: { file: "/r/clips/1.mp4" },
        artifacts: clip("clips/1.mp4", "bbb"),
      },
      { type: "step.end", step: "clips", outputs: [] },
      { type: "take.pick", step: "clips", index: 1, take: 1 },
    ]);
    const step = state.steps.get("clips");
    const item = step?.items.get(1);
    if (!step || !item) throw new Error("no item");
    expect(step.status).toBe("running");
    expect(item.takes?.picked).toBe(1);
    expect(item).toMatchObject({
      status: "succeeded",
      artifacts: clip("clips/1.mp4", "aaa"),
      facts: { "video.submitted": { jobId: "a" } },
    });
    expect(takesOf(step, item, 1).map((take) => [take.take, take.status])).toEqual([
      [1, "succeeded"],
      [2, "succeeded"],
    ]);
    expect(takesOf(step, item, 1)[1]?.facts).toEqual({ "video.submitted": { jobId: "b" } });
  });

  it("ignores a pick of a take it does not know", () => {
    const state = replayJournal([
      ...retaken,
      { type: "take.pick", step: "clips", index: 1, take: 7 },
    ]);
    expect(state.steps.get("clips")?.items.get(1)?.takes?.picked).toBe(2);
  });
});

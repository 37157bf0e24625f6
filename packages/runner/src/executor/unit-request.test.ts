import { describe, expect, it } from "vitest";
import type { ExpressionContext } from "../expressions/index.js";
import type { JournalRecord } from "../journal/journal-record.js";
import type { PipelineSpec } from "../pipeline/pipeline-spec.js";
import { replayJournal } from "./replay-journal.js";
import {
  journaledUnitRequest,
  statusName,
  unitBody,
  unitContext,
  unitRequest,
} from "./unit-request.js";

const run = { id: "r1", dir: "/runs/r1", name: "film" };
const context: ExpressionContext = { inputs: { style: "ink" }, env: {}, steps: {}, run };

describe("a unit's request", () => {
  it("merges the step's body over the pipeline's defaults of its kind", () => {
    const step = { id: "clips", video: { prompt: "a fox", seconds: 8 } };
    expect(unitBody(step, "video", { video: { seconds: 4, model: "m" }, chat: { x: 1 } })).toEqual({
      seconds: 8,
      model: "m",
      prompt: "a fox",
    });
    expect(unitBody(step, "video", undefined)).toEqual({ prompt: "a fox", seconds: 8 });
  });

  it("reads its item, its index and the item before; a plain unit reads its step's context", () => {
    expect(unitContext(context)).toBe(context);
    expect(unitContext(context, { item: "a", index: 0 })).not.toHaveProperty("previous");
    expect(unitContext(context, { item: "b", index: 1, previous: null })).toMatchObject({
      item: "b",
      index: 1,
      previous: null,
    });
  });

  it("is its body evaluated in its context, with a take's changes over it", () => {
    const body = { prompt: "${{ item }} in ${{ inputs.style }}", params: { seed: 1, size: "s" } };
    const place = unitContext(context, { item: "a fox", index: 0 });
    expect(unitRequest(body, place)).toEqual({
      prompt: "a fox in ink",
      params: { seed: 1, size: "s" },
    });
    expect(unitRequest(body, place, { params: { seed: 7 } })).toEqual({
      prompt: "a fox in ink",
      params: { seed: 7, size: "s" },
    });
  });

  it("names a step's status as expressions read it", () => {
    expect(["succeeded", "failed", "skipped", "cancelled", "waiting"].map(statusName)).toEqual([
      "success",
      "failure",
      "skipped",
      "cancelled",
      "waiting",
    ]);
    expect(statusName("running")).toBe("success");
  });
});

describe("a journaled unit's request", () => {
  const spec: PipelineSpec = {
    name: "film",
    defaults: { video: { seconds: 4 } },
    steps: [
      { id: "plan", chat: { prompt: "scenes" } },
      {
        id: "clips",
        for_each: "${{ steps.plan.outputs.scenes }}",
        sequential: true,
        video: {
          prompt:
            "${{ item }} after ${{ previous && previous.outputs.file }} (${{ steps.plan.status }})",
        },
      },
    ],
  };
  const records: JournalRecord[] = [
    { type: "step.end", step: "plan", outputs: { scenes: ["dawn", "noon", "dusk"] } },
    { type: "step.start", step: "clips" },
    { type: "item.end", step: "clips", index: 0, outputs: { file: "clips/0.mp4" } },
    { type: "item.end", step: "clips", index: 1, outputs: { file: "clips/1.mp4" } },
  ];
  const unit = {
    spec,
    state: replayJournal(records),
    step: spec.steps[1] ?? { id: "missing" },
    kind: { kind: "video" },
    inputs: {},
    run,
  };

  it("is evaluated again as the executor asked it, the item before read from the journal", () => {
    expect(journaledUnitRequest({ ...unit, index: 2 })).toEqual({
      seconds: 4,
      prompt: "dusk after clips/1.mp4 (success)",
    });
    expect(journaledUnitRequest({ ...unit, index: 0 }, { prompt: "a wolf" })).toEqual({
      seconds: 4,
      prompt: "a wolf",
    });
  });

  it("is undefined once its item is not in its fan-out's list", () => {
    expect(journaledUnitRequest({ ...unit, index: 3 })).toBeUndefined();
  });
});

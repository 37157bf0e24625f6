import { describe, expect, it } from "vitest";
import { downstreamOf, keptStep } from "./focus.js";

describe("a focused session's steps", () => {
  const graph = {
    order: ["story", "clips", "film", "poster", "title"],
    dependencies: new Map([
      ["story", new Set<string>()],
      ["clips", new Set(["story"])],
      ["film", new Set(["clips"])],
      ["poster", new Set(["film"])],
      ["title", new Set(["story"])],
    ]),
  };

  it("runs the unit's step and everything downstream of it, directly or not", () => {
    expect([...downstreamOf("clips", graph)].sort()).toEqual(["clips", "film", "poster"]);
    expect([...downstreamOf("poster", graph)]).toEqual(["poster"]);
  });

  it("keeps every other step as its journal says", () => {
    const step = { id: "title" };
    expect(
      keptStep(step, { status: "succeeded", outputs: { text: "t" }, items: new Map() }),
    ).toMatchObject({
      summary: { status: "succeeded", outputs: { text: "t" }, reused: true },
      event: { type: "step.end", reused: true },
    });
    const failed = keptStep(step, {
      status: "failed",
      error: { name: "StepError", code: "step_failed", message: "boom" },
      items: new Map(),
    });
    expect(failed.summary.status).toBe("failed");
    expect(failed.event).toMatchObject({ type: "step.skip", reason: "kept as it was: boom" });
    expect(failed.error?.message).toBe("boom");
    expect(keptStep(step, undefined).summary.status).toBe("skipped");
  });
});

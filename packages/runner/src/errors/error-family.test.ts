import { ReelsmithError } from "@reelsmith/core";
import { APIUserAbortError, RateLimitError } from "@reelsmith/core/errors";
import { describe, expect, it } from "vitest";
import { settleRun } from "../executor/run-outcome.js";
import { InputError } from "../pipeline/errors/input-error.js";
import { ApprovalRejectedError } from "../steps/approve/errors/approval-rejected-error.js";
import { LostVideoJobError } from "../steps/video/errors/lost-video-job-error.js";
import { BudgetEstimateError } from "./budget-estimate-error.js";
import { BudgetExceededError } from "./budget-exceeded-error.js";
import { reviveError } from "./revive-error.js";
import { RunCancelledError } from "./run-cancelled-error.js";
import { RunnerError } from "./runner-error.js";
import { serializeError } from "./serialize-error.js";
import { StepError } from "./step-error.js";
import { StepWaitingError } from "./step-waiting-error.js";

/** An error as another process or a later session reads it: through JSON. */
function crossed(error: unknown) {
  return reviveError(JSON.parse(JSON.stringify(serializeError(error))));
}

const spec = { steps: [] } as never;
const ran = { cancelled: false, context: { inputs: {}, env: {}, steps: {} } } as Parameters<
  typeof settleRun
>[1];

describe("the runner's errors", () => {
  it("are reelsmith errors, each recognised by its own marker", () => {
    const error = new LostVideoJobError("clips", 2, "video_1", undefined);
    expect(LostVideoJobError.isInstance(error)).toBe(true);
    expect(RunnerError.isInstance(error)).toBe(true);
    expect(ReelsmithError.isInstance(error)).toBe(true);
    expect(StepError.isInstance(error)).toBe(false);
    const copy = Object.assign(new Error("from another copy"), {
      [Symbol.for("reelsmith.error.RunnerError")]: true,
      [Symbol.for("reelsmith.error.BudgetExceededError")]: true,
    });
    expect(BudgetExceededError.isInstance(copy)).toBe(true);
    expect(InputError.isInstance(copy)).toBe(false);
  });

  it("say what they mean for the caller by their category", () => {
    const cases: [ReelsmithError, string][] = [
      [new InputError([{ input: "scenes", message: "not a number" }]), "invalid"],
      [new BudgetEstimateError({ credits: 9, steps: {} } as never, 5), "invalid"],
      [new BudgetExceededError(5, 4), "budget"],
      [new StepWaitingError("review", "waits"), "waiting"],
      [
        new ApprovalRejectedError("review", { by: "ana", at: "2026-01-01T00:00:00.000Z" }),
        "rejected",
      ],
      [new RunCancelledError(), "interrupted"],
      [new StepError("clips", 1, new Error("boom")), "failed"],
    ];
    for (const [error, category] of cases) expect(error.category).toBe(category);
  });

  it("keep their category, code, hint and retry flag across a process or the journal", () => {
    expect(crossed(new BudgetExceededError(5, 4))).toMatchObject({
      code: "budget_reached",
      category: "budget",
    });
    expect(crossed(new InputError([{ input: "a", message: "b" }])).category).toBe("invalid");
    const limited = crossed(new RateLimitError("slow down"));
    expect(limited).toMatchObject({
      code: "rate_limit_exceeded",
      isRetryable: true,
      category: "failed",
    });
    expect(limited.hint).toContain("rate limiting");
    expect(RunCancelledError.isInstance(crossed(new APIUserAbortError()))).toBe(true);
    const waiting = crossed(new StepWaitingError("review", "waits for approval", { message: "m" }));
    expect(StepWaitingError.isInstance(waiting)).toBe(true);
    expect((waiting as StepWaitingError).details).toEqual({ message: "m" });
  });

  it("read from a journal written before errors had a category, map by their code", () => {
    const legacy = reviveError({
      name: "BudgetExceededError",
      code: "budget_reached",
      message: "x",
    });
    expect(legacy.category).toBe("budget");
    expect(reviveError({ name: "Error", message: "x" }).category).toBe("failed");
  });

  it("give a run its status by category, also after crossing as data", () => {
    expect(settleRun(spec, { ...ran, error: new BudgetExceededError(5, 4) }).status).toBe(
      "budget_reached",
    );
    const rejected = new ApprovalRejectedError("review", {
      by: "ana",
      at: "2026-01-01T00:00:00.000Z",
    });
    expect(settleRun(spec, { ...ran, error: crossed(rejected) }).status).toBe("rejected");
    expect(
      settleRun(spec, { ...ran, error: new StepError("a", undefined, new Error("x")) }).status,
    ).toBe("failed");
  });
});

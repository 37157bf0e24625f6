import {
  APIUserAbortError,
  BadRequestError,
  RateLimitError,
  UnprocessableEntityError,
  VideoJobFailedError,
} from "@reelsmith/core/errors";
import { describe, expect, it } from "vitest";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { reviveError } from "../errors/revive-error.js";
import { RunCancelledError } from "../errors/run-cancelled-error.js";
import { serializeError } from "../errors/serialize-error.js";
import { StepError } from "../errors/step-error.js";
import { StepTimeoutError } from "../errors/step-timeout-error.js";
import { isRetryableStepError } from "./retry-policy.js";

const failedJob = (code: string) =>
  new VideoJobFailedError({
    id: "v",
    object: "video",
    status: "failed",
    created: 1,
    model: "m",
    prompt: "p",
    error: { code, message: "no" },
  });

describe("step-level retries follow what the error says", () => {
  it("never repeat a request the service refused, a decision of the runner, or a cancel", () => {
    expect(isRetryableStepError(new BadRequestError("400", { status: 400 }))).toBe(false);
    expect(isRetryableStepError(new UnprocessableEntityError("422", { status: 422 }))).toBe(false);
    expect(isRetryableStepError(new BudgetExceededError(10, 5))).toBe(false);
    expect(isRetryableStepError(failedJob("moderation_blocked"))).toBe(false);
    expect(isRetryableStepError(new RunCancelledError())).toBe(false);
    expect(isRetryableStepError(new APIUserAbortError())).toBe(false);
  });

  it("repeat what may pass: a rate limit, a timeout, a failed generation, an error that says nothing", () => {
    expect(isRetryableStepError(new RateLimitError("429", { status: 429 }))).toBe(true);
    expect(isRetryableStepError(new StepTimeoutError("s", undefined, 10))).toBe(true);
    expect(isRetryableStepError(failedJob("video_generation_failed"))).toBe(true);
    expect(isRetryableStepError(new Error("a kind's own failure"))).toBe(true);
    expect(
      isRetryableStepError(new StepError("s", 0, new RateLimitError("429", { status: 429 }))),
    ).toBe(true);
  });

  it("keep the verdict when an error travelled as data (another worker's unit)", () => {
    const refused = reviveError(serializeError(new BadRequestError("400", { status: 400 })));
    expect(isRetryableStepError(refused)).toBe(false);
    const limited = reviveError(serializeError(new RateLimitError("429", { status: 429 })));
    expect(isRetryableStepError(limited)).toBe(true);
    const cancelled = reviveError(serializeError(new RunCancelledError("stop")));
    expect(RunCancelledError.isInstance(cancelled)).toBe(true);
    expect(isRetryableStepError(cancelled)).toBe(false);
  });

  it("recognises errors by their class marker, through subclasses too", () => {
    const timeout = new StepTimeoutError("s", 1, 5);
    expect(StepTimeoutError.isInstance(timeout)).toBe(true);
    expect(RunCancelledError.isInstance(timeout)).toBe(false);
    expect(BudgetExceededError.isInstance({ ...timeout })).toBe(false);
    expect(StepError.isInstance(new StepError("s", undefined, timeout))).toBe(true);
  });
});

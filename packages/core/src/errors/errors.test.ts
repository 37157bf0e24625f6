import { describe, expect, it } from "vitest";
import {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  InternalServerError,
  InvalidRequestError,
  RateLimitError,
  ReelsmithError,
  StreamIdleTimeoutError,
  ToolRoundsExceededError,
  VideoJobFailedError,
  VideoJobTimeoutError,
} from "./index.js";

describe("error classes", () => {
  it("isInstance follows the class hierarchy", () => {
    const error = new RateLimitError("429 slow down", { requestId: "r" });
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(APIError.isInstance(error)).toBe(true);
    expect(ReelsmithError.isInstance(error)).toBe(true);
    expect(InternalServerError.isInstance(error)).toBe(false);
    expect(APIConnectionError.isInstance(error)).toBe(false);
    const idle = new StreamIdleTimeoutError(100);
    expect(APITimeoutError.isInstance(idle)).toBe(true);
    expect(APIConnectionError.isInstance(idle)).toBe(true);
    expect(APIUserAbortError.isInstance(idle)).toBe(false);
    expect(ReelsmithError.isInstance(new Error("plain"))).toBe(false);
    expect(ReelsmithError.isInstance(null)).toBe(false);
  });

  it("isInstance recognises an error from another copy of the package by its Symbol.for marker", () => {
    const foreign = Object.assign(new Error("from elsewhere"), {
      [Symbol.for("reelsmith.error.ReelsmithError")]: true,
      [Symbol.for("reelsmith.error.VideoJobTimeoutError")]: true,
    });
    expect(VideoJobTimeoutError.isInstance(foreign)).toBe(true);
    expect(ReelsmithError.isInstance(foreign)).toBe(true);
    expect(VideoJobFailedError.isInstance(foreign)).toBe(false);
  });

  it("has stable codes, names and retry flags", () => {
    const cases: [ReelsmithError, string, boolean][] = [
      [new RateLimitError("x"), "rate_limit_exceeded", true],
      [new InternalServerError("x", { status: 503 }), "internal_server_error", true],
      [new APIConnectionError(), "connection_error", true],
      [new APITimeoutError(5), "timeout", true],
      [new StreamIdleTimeoutError(5), "stream_idle_timeout", true],
      [new APIUserAbortError(), "aborted", false],
      [new InvalidRequestError("top_p", "bad"), "invalid_request", false],
      [new AmbiguousSubmissionError("k"), "ambiguous_submission", false],
      [new ToolRoundsExceededError(3, []), "tool_rounds_exceeded", false],
      [new VideoJobTimeoutError("v", 5), "video_job_timeout", true],
    ];
    for (const [error, code, retryable] of cases) {
      expect(error.code).toBe(code);
      expect(error.isRetryable).toBe(retryable);
      expect(error.name).toBe(error.constructor.name);
      expect(error).toBeInstanceOf(Error);
    }
    expect(new InternalServerError("x", { status: 503 }).status).toBe(503);
  });

  it("a failed job is retryable unless the service says the same request fails again", () => {
    const job = (code?: string) => ({
      id: "v",
      object: "video" as const,
      status: "failed" as const,
      created: 1,
      model: "m",
      prompt: "p",
      error: { ...(code ? { code } : {}), message: "no" },
    });
    expect(new VideoJobFailedError(job()).isRetryable).toBe(true);
    expect(new VideoJobFailedError(job("internal_error")).isRetryable).toBe(true);
    expect(new VideoJobFailedError(job("moderation_blocked")).isRetryable).toBe(false);
    expect(new VideoJobFailedError(job("invalid_request")).isRetryable).toBe(false);
  });

  it("serialises to plain JSON with fields and cause", () => {
    const job = {
      id: "v",
      object: "video" as const,
      status: "failed" as const,
      created: 1,
      model: "m",
      prompt: "p",
      error: { code: "boom", message: "exploded" },
    };
    const failed = new VideoJobFailedError(job);
    const json = JSON.parse(JSON.stringify(failed));
    expect(json).toMatchObject({
      name: "VideoJobFailedError",
      code: "video_job_failed",
      message: "Video job v failed: exploded (boom)",
      // A generation failure may pass on another submission.
      isRetryable: true,
      jobError: { code: "boom", message: "exploded" },
      job: { id: "v" },
    });
    const ambiguous = new AmbiguousSubmissionError("key-1", { cause: new APITimeoutError(50) });
    expect(ambiguous.toJSON()).toMatchObject({
      idempotencyKey: "key-1",
      cause: { name: "APITimeoutError", code: "timeout", timeoutMs: 50 },
    });
    const api = new APIError("400 bad", {
      status: 400,
      code: "x",
      requestId: "r",
      param: "p",
      type: "t",
    });
    expect(api.toJSON()).toMatchObject({
      name: "APIError",
      status: 400,
      code: "x",
      requestId: "r",
      param: "p",
      type: "t",
    });
  });
});

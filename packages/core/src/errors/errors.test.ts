import { describe, expect, it } from "vitest";
import {
  AmbiguousSubmissionError,
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  errorCategoryOf,
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
  it("each error has a category, and a hint when its class knows what to do", () => {
    expect(new APIUserAbortError().category).toBe("interrupted");
    expect(new InvalidRequestError("top_p", "bad").category).toBe("invalid");
    expect(new RateLimitError("x").category).toBe("failed");
    expect(new RateLimitError("x").hint).toContain("rate limiting");
    expect(new APIConnectionError().hint).toContain("base URL");
    expect(new APITimeoutError(5).hint).toContain("did not answer in time");
    expect(new InternalServerError("x").hint).toBeUndefined();
    expect(new APIUserAbortError().toJSON()).toMatchObject({
      code: "aborted",
      category: "interrupted",
    });
    expect(errorCategoryOf("budget")).toBe("budget");
    expect(errorCategoryOf("nonsense")).toBe("failed");
  });

  it("a subclass declared elsewhere is marked reelsmith.error.<Name> and recognised by it", () => {
    class SomePackageError extends ReelsmithError {
      constructor() {
        super("x", { code: "some", category: "usage", hint: "do this" });
      }
    }
    class OtherPackageError extends ReelsmithError {}
    const error = new SomePackageError();
    expect(SomePackageError.isInstance(error)).toBe(true);
    expect(ReelsmithError.isInstance(error)).toBe(true);
    expect(OtherPackageError.isInstance(error)).toBe(false);
    expect(
      (error as unknown as Record<symbol, unknown>)[Symbol.for("reelsmith.error.SomePackageError")],
    ).toBe(true);
    expect(error.toJSON()).toEqual({
      name: "SomePackageError",
      code: "some",
      message: "x",
      isRetryable: false,
      category: "usage",
      hint: "do this",
    });
  });

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

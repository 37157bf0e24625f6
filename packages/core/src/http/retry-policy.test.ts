import { describe, expect, it } from "vitest";
import {
  backoffDelay,
  isConnectPhaseError,
  isRetryableStatus,
  retryAfterDelay,
} from "./retry-policy.js";

describe("retry policy", () => {
  it("retries 408, 409, 429 and 5xx only", () => {
    expect([400, 401, 403, 404, 408, 409, 422, 429, 500, 503, 599].map(isRetryableStatus)).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  it("doubles from 0.5 s to an 8 s cap, with jitter in [0.75, 1]", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((retry) => backoffDelay(retry, 500, 8000, () => 1))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    expect(backoffDelay(0, 500, 8000, () => 0)).toBe(375);
  });

  it("reads retry-after-ms, retry-after seconds and HTTP dates, capped", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterDelay({ "retry-after-ms": "250" }, 60_000, now)).toBe(250);
    expect(retryAfterDelay({ "retry-after": "2" }, 60_000, now)).toBe(2000);
    expect(retryAfterDelay({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }, 60_000, now)).toBe(
      3000,
    );
    expect(retryAfterDelay({ "retry-after": "Wed, 31 Dec 2025 23:00:00 GMT" }, 60_000, now)).toBe(
      0,
    );
    expect(retryAfterDelay({ "retry-after": "86400" }, 60_000, now)).toBe(60_000);
    expect(retryAfterDelay({ "retry-after": "soon" }, 60_000, now)).toBeUndefined();
    expect(retryAfterDelay({}, 60_000, now)).toBeUndefined();
  });

  it("recognises connect-phase failures anywhere in the cause chain", () => {
    expect(isConnectPhaseError(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(
      isConnectPhaseError(
        new Error("x", { cause: Object.assign(new Error("y"), { code: "ENOTFOUND" }) }),
      ),
    ).toBe(true);
    expect(
      isConnectPhaseError(
        new AggregateError([Object.assign(new Error("y"), { code: "ECONNREFUSED" })]),
      ),
    ).toBe(true);
    expect(isConnectPhaseError(Object.assign(new Error("x"), { code: "UND_ERR_SOCKET" }))).toBe(
      false,
    );
    expect(isConnectPhaseError(Object.assign(new Error("x"), { code: "ECONNRESET" }))).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { backoffDelay, isRetryableStatus, parseRetryAfter } from "./retry-policy.js";

describe("retry policy", () => {
  it("retries 429 and 5xx only", () => {
    for (const status of [429, 500, 502, 503, 504, 599])
      expect(isRetryableStatus(status)).toBe(true);
    for (const status of [200, 301, 400, 401, 403, 404, 408, 410, 422, 600]) {
      expect(isRetryableStatus(status)).toBe(false);
    }
  });

  it("doubles the delay up to its maximum", () => {
    const delays = [1, 2, 3, 4, 5, 6].map((attempt) =>
      backoffDelay({ attempt, firstDelayMs: 500, maxDelayMs: 4_000 }),
    );
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 4_000, 4_000]);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-01-01T10:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Thu, 01 Jan 2026 10:00:05 GMT", now)).toBe(5_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-1", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

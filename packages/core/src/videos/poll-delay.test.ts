import { describe, expect, it } from "vitest";
import { pollDelay } from "./poll-delay.js";

describe("pollDelay", () => {
  it("waits the server's hint, clamped to [50 ms, 60 s], plus at most 5 % (≤ 250 ms) of jitter", () => {
    expect(pollDelay({ "openai-poll-after-ms": "1" }, 5000, () => 0)).toBe(50);
    expect(pollDelay({ "openai-poll-after-ms": "1200" }, 5000, () => 0)).toBe(1200);
    expect(pollDelay({ "openai-poll-after-ms": "1200" }, 5000, () => 1)).toBe(1260);
    expect(pollDelay({ "openai-poll-after-ms": "20000" }, 5000, () => 1)).toBe(20_250);
    expect(pollDelay({ "openai-poll-after-ms": "999999" }, 5000, () => 0)).toBe(60_000);
  });

  it("takes Retry-After (seconds, date or retry-after-ms) when there is no poll hint", () => {
    expect(pollDelay({ "retry-after": "3" }, 5000, () => 0)).toBe(3000);
    expect(pollDelay({ "retry-after-ms": "700" }, 5000, () => 0)).toBe(700);
    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
    const fromDate = pollDelay({ "retry-after": inTwoSeconds }, 5000, () => 0);
    expect(fromDate).toBeGreaterThanOrEqual(50);
    expect(fromDate).toBeLessThanOrEqual(2000);
    // The poll hint wins over Retry-After.
    expect(pollDelay({ "openai-poll-after-ms": "400", "retry-after": "9" }, 5000, () => 0)).toBe(
      400,
    );
  });

  it("without a usable hint waits the interval plus 0–20 % jitter, never less", () => {
    expect(pollDelay({}, 5000, () => 0)).toBe(5000);
    expect(pollDelay({}, 5000, () => 1)).toBe(6000);
    expect(pollDelay({ "openai-poll-after-ms": "soon" }, 5000, () => 0.5)).toBe(5500);
    expect(pollDelay(undefined, 5000, () => 0)).toBe(5000);
  });
});

import { describe, expect, it } from "vitest";
import { pollDelay } from "./poll-delay.js";

describe("pollDelay", () => {
  it("clamps the server hint to [50 ms, 60 s]", () => {
    expect(pollDelay({ "openai-poll-after-ms": "1" }, 5000)).toBe(50);
    expect(pollDelay({ "openai-poll-after-ms": "1200" }, 5000)).toBe(1200);
    expect(pollDelay({ "openai-poll-after-ms": "999999" }, 5000)).toBe(60_000);
  });

  it("uses the interval with ±10% jitter without a usable hint", () => {
    expect(pollDelay({}, 5000, () => 0)).toBe(4500);
    expect(pollDelay({}, 5000, () => 1)).toBe(5500);
    expect(pollDelay({ "openai-poll-after-ms": "soon" }, 5000, () => 0.5)).toBe(5000);
  });
});

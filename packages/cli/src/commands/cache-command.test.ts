import { DEFAULT_CACHE_DIR } from "@reelsmith/runner/cache";
import { describe, expect, it } from "vitest";
import { DEFAULT_CACHE } from "./cache-command.js";

describe("reelsmith cache", () => {
  it("names the runner's own default cache directory (kept apart so the CLI starts without the cache code)", () => {
    expect(DEFAULT_CACHE).toBe(DEFAULT_CACHE_DIR);
  });
});

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requestCacheKey } from "../../cache/request-cache-key.js";
import { imageKind } from "./index.js";

/** The cache key of a image request, by this kind's own cache policy (`cache.inputFiles`). */
const keyOf = (spec: Record<string, unknown>, dir: string) =>
  requestCacheKey(imageKind.kind, imageKind.cache ?? {}, spec, dir, {
    service: "https://api.example.com/v1",
  });

describe("the image kind's cache key", () => {
  it("keys its requests as before its file fields moved into the kind", async () => {
    // The key the shared list of file fields made before each kind declared its own: an
    // entry made then is still found, not paid again.
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-key-"));
    writeFileSync(join(dir, "a.png"), "one");
    writeFileSync(join(dir, "b.png"), "two");
    expect(await keyOf({ model: "i", prompt: "p", references: [["a.png"], "b.png"] }, dir)).toBe(
      "68d632d21761892a427c312b2e75daa3c8b2a33772b49fa8a90736ebe7ce2c2f",
    );
  });
});

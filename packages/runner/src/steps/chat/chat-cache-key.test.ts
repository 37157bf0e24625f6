import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requestCacheKey } from "../../cache/request-cache-key.js";
import { chatKind } from "./index.js";

/** The cache key of a chat request, by this kind's own cache policy (`cache.inputFiles`). */
const keyOf = (spec: Record<string, unknown>, dir: string) =>
  requestCacheKey(chatKind.kind, chatKind.cache ?? {}, spec, dir, {
    service: "https://api.example.com/v1",
  });

describe("the chat kind's cache key", () => {
  it("keys its requests as before its file fields moved into the kind", async () => {
    // The key the shared list of file fields made before each kind declared its own: an
    // entry made then is still found, not paid again.
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-key-"));
    writeFileSync(join(dir, "a.png"), "one");
    writeFileSync(join(dir, "b.png"), "two");
    expect(
      await keyOf({ model: "c", prompt: "look", images: ["a.png", "https://x/y.png"] }, dir),
    ).toBe("1784722db07c234dc1b440b56bbd94f1f438b84f7f09b850fc67ac5bb282e6f9");
  });
});

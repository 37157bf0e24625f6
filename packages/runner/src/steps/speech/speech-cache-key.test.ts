import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requestCacheKey } from "../../cache/request-cache-key.js";
import { speechKind } from "./index.js";

/** The cache key of a speech request, by this kind's own cache policy (`cache.inputFiles`). */
const keyOf = (spec: Record<string, unknown>, dir: string) =>
  requestCacheKey(speechKind.kind, speechKind.cache ?? {}, spec, dir, {
    service: "https://api.example.com/v1",
  });

describe("the speech kind's cache key", () => {
  it("keys its requests as before its file fields moved into the kind", async () => {
    // The key the shared list of file fields made before each kind declared its own: an
    // entry made then is still found, not paid again.
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-key-"));
    writeFileSync(join(dir, "a.png"), "one");
    writeFileSync(join(dir, "b.png"), "two");
    expect(await keyOf({ model: "s", input: "hi", voice: "v" }, dir)).toBe(
      "bff452d771e58c30c702babe04c07dc7aae6acaf22e43ee0002c46fa5922255f",
    );
  });
});

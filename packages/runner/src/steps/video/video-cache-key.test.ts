import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requestCacheKey } from "../../cache/request-cache-key.js";
import { videoKind } from "./index.js";

/** The cache key of a video request, by this kind's own cache policy (`cache.inputFiles`). */
const keyOf = (spec: Record<string, unknown>, dir: string) =>
  requestCacheKey(videoKind.kind, videoKind.cache ?? {}, spec, dir, {
    service: "https://api.example.com/v1",
  });

describe("the video kind's cache key", () => {
  it("keys its requests as before its file fields moved into the kind", async () => {
    // The key the shared list of file fields made before each kind declared its own: an
    // entry made then is still found, not paid again.
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-key-"));
    writeFileSync(join(dir, "a.png"), "one");
    writeFileSync(join(dir, "b.png"), "two");
    const video = {
      model: "m",
      prompt: "p",
      image: "a.png",
      params: { seed: 7, last_frame: "b.png", ref: "https://x/y.png" },
    };
    expect(await keyOf(video, dir)).toBe(
      "5fdcc1ded7de923ae0294ec86ffb7892366b73b687850e958a978243d823472d",
    );
    // By its bytes: the same first frame in another run's directory keys the same.
    mkdirSync(join(dir, "runs", "r2"), { recursive: true });
    writeFileSync(join(dir, "runs", "r2", "frame.png"), "one");
    expect(await keyOf({ ...video, image: join(dir, "runs", "r2", "frame.png") }, dir)).toBe(
      await keyOf(video, dir),
    );
  });
});

import { builtInStepKinds } from "@reelsmith/runner/kinds";
import { describe, expect, it } from "vitest";
import { keptMaxVideos, maxVideosQueue, maxVideosSlots } from "./max-videos.js";

/** The built-in kinds, with the video kind waiting on a queue of another name. */
const renamed = builtInStepKinds.map((kind) =>
  kind.kind === "video" ? { ...kind, queue: "clips" } : kind,
);

describe("--max-videos", () => {
  it("limits the queue the video kind declares, read from the kind", async () => {
    const video = builtInStepKinds.find((kind) => kind.kind === "video");
    expect(await maxVideosQueue()).toBe(video?.queue);
    expect(await maxVideosSlots(2)).toEqual({ slots: { [String(video?.queue)]: 2 } });
    // A kind that waits elsewhere takes the flag with it: no queue name is spelt here.
    expect(await maxVideosSlots(3, renamed)).toEqual({ slots: { clips: 3 } });
    expect(await maxVideosSlots(undefined)).toEqual({});
  });

  it("reads back what a batch kept, by the same queue", async () => {
    expect(await keptMaxVideos(await maxVideosSlots(4).then((given) => given.slots))).toBe(4);
    expect(await keptMaxVideos(undefined)).toBeUndefined();
  });

  it("says what is missing when no video kind waits on a service queue", async () => {
    await expect(
      maxVideosQueue(builtInStepKinds.filter((kind) => kind.kind !== "video")),
    ).rejects.toThrow("Expected a video step kind that waits on a service queue");
  });
});

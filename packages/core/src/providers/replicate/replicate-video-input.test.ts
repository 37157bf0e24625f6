import { describe, expect, it } from "vitest";
import { replicateModel } from "./replicate-model.js";
import { predictionAsJob, replicateVideoProvider } from "./replicate-video.js";
import {
  replicateSizeFields,
  replicateVideoFamily,
  replicateVideoInput,
  replicateVideoProblems,
} from "./replicate-video-input.js";

describe("Replicate's video input", () => {
  it("maps prompt, seconds, size and image onto each family's own fields", () => {
    expect(
      replicateVideoInput({
        model: "kwaivgi/kling-v2.1",
        prompt: "a fox",
        seconds: " 5 ",
        size: "1280x720",
        image: "https://cdn.test/fox.png",
        params: { negative_prompt: "blur" },
      }),
    ).toEqual({
      prompt: "a fox",
      duration: 5,
      aspect_ratio: "16:9",
      start_image: "https://cdn.test/fox.png",
      negative_prompt: "blur",
    });
    expect(
      replicateVideoInput({ model: "google/veo-3-fast", prompt: "a fox", size: "1080x1920" }),
    ).toEqual({ prompt: "a fox", aspect_ratio: "9:16", resolution: "1080p" });
    expect(
      replicateVideoInput({
        model: "minimax/hailuo-02",
        prompt: "a fox",
        seconds: 6,
        size: "1366x768",
        image: "https://cdn.test/fox.png",
      }),
    ).toEqual({
      prompt: "a fox",
      duration: 6,
      resolution: "768p",
      first_frame_image: "https://cdn.test/fox.png",
    });
  });

  it("knows the sizes a family takes", () => {
    expect(replicateSizeFields("720x720", replicateVideoFamily("kwaivgi/kling-v2.1"))).toEqual({
      aspect_ratio: "1:1",
    });
    expect(replicateSizeFields("720x720", replicateVideoFamily("google/veo-3"))).toBeUndefined();
    expect(replicateSizeFields("wide", replicateVideoFamily("acme/any"))).toBeUndefined();
    expect(
      replicateSizeFields("1280x720", replicateVideoFamily("minimax/video-01")),
    ).toBeUndefined();
  });

  it("finds every problem before anything is sent, naming the field", () => {
    expect(
      replicateVideoProblems({
        model: "kling",
        prompt: " ",
        seconds: 2.5,
        size: "1000x777",
        params: { aspect_ratio: "16:9" },
      }).map((problem) => problem.field),
    ).toEqual(["model", "prompt", "seconds", "size", "params.aspect_ratio"]);
    expect(
      replicateVideoProblems({ model: "minimax/video-01", prompt: "a fox", seconds: 6 })[0]?.field,
    ).toBe("seconds");
    expect(
      replicateVideoProblems({ model: "kwaivgi/kling-v2.1", prompt: "a fox", seconds: 7 })[0]
        ?.message,
    ).toMatch(/use 5 or 10/);
    expect(
      replicateVideoProblems({ model: "kwaivgi/kling-v2.1", prompt: "a fox", seconds: 5 }),
    ).toEqual([]);
  });

  it("reads owner/name and a pinned version", () => {
    const version = "a".repeat(64);
    expect(replicateModel("google/veo-3")).toEqual({ owner: "google", name: "veo-3" });
    expect(replicateModel(`acme/clip:${version}`)).toEqual({
      owner: "acme",
      name: "clip",
      version,
    });
    expect(() => replicateModel("acme/clip/extra")).toThrow(/owner\/name/);
  });

  it("reads a prediction as a job: states, output URL (or list), errors", () => {
    const base = { id: "p1", model: "google/veo-3", input: { prompt: "a fox" } };
    expect(predictionAsJob({ ...base, status: "starting" }).status).toBe("pending");
    const done = predictionAsJob({
      ...base,
      status: "succeeded",
      output: ["https://replicate.delivery/x/out.mp4"],
      created_at: "2026-01-01T00:00:00.000Z",
      completed_at: "2026-01-01T00:01:00.000Z",
    });
    expect(done).toMatchObject({
      status: "completed",
      prompt: "a fox",
      video_url: "https://replicate.delivery/x/out.mp4",
      output_expires_at: Date.parse("2026-01-01T01:01:00.000Z") / 1000,
    });
    expect(predictionAsJob({ ...base, status: "canceled" }).error?.code).toBe("canceled");
    expect(predictionAsJob({ ...base, status: "failed", error: "NSFW" }).error).toEqual({
      message: "NSFW",
    });
  });

  it("sends the key as Bearer, no idempotency header, and settles by the list", () => {
    expect(replicateVideoProvider.authHeaders("r8_1")).toEqual({ authorization: "Bearer r8_1" });
    expect(replicateVideoProvider.idempotencyHeader).toBeUndefined();
    expect(replicateVideoProvider.settlement).toEqual(["list"]);
  });
});

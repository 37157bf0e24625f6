import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../errors/invalid-request-error.js";
import { falApp, falJobId, parseFalJobId } from "./fal-endpoint.js";
import { falVideoProvider } from "./fal-video.js";
import { falAspectRatio, falVideoInput, falVideoProblems } from "./fal-video-input.js";

const kling = "fal-ai/kling-video/v2.1/standard/text-to-video";

describe("fal's video input", () => {
  it("maps prompt, seconds, size and image onto the endpoint's own fields", () => {
    expect(
      falVideoInput({
        model: kling,
        prompt: "a fox",
        seconds: " 5 ",
        size: "1280x720",
        image: "https://cdn.test/fox.png",
        params: { negative_prompt: "blur", cfg_scale: 0.5 },
      }),
    ).toEqual({
      prompt: "a fox",
      duration: "5",
      aspect_ratio: "16:9",
      image_url: "https://cdn.test/fox.png",
      negative_prompt: "blur",
      cfg_scale: 0.5,
    });
  });

  it("reduces sizes to fal's aspect ratios, and knows those it takes", () => {
    expect(falAspectRatio("720x1280")).toBe("9:16");
    expect(falAspectRatio("1024x1024")).toBe("1:1");
    // The usual rounded sizes are their ratio: 854x480 is 16:9 to within 0.1%.
    expect(falAspectRatio("854x480")).toBe("16:9");
    expect(falAspectRatio("480x854")).toBe("9:16");
    expect(falAspectRatio("1366x768")).toBe("16:9");
    expect(falAspectRatio("1000x777")).toBeUndefined();
    expect(falAspectRatio("1000x640")).toBeUndefined();
    expect(falAspectRatio("wide")).toBeUndefined();
  });

  it("finds every problem before anything is sent, naming the field", () => {
    expect(
      falVideoProblems({
        model: "kling",
        prompt: " ",
        seconds: 2.5,
        size: "1000x777",
        params: { aspect_ratio: "16:9" },
      }).map((problem) => problem.field),
    ).toEqual(["model", "prompt", "seconds", "size", "params.aspect_ratio"]);
    expect(falVideoProblems({ model: kling, prompt: "a fox", seconds: 5 })).toEqual([]);
  });

  it("refuses through the provider's validate with an InvalidRequestError", () => {
    let caught: unknown;
    try {
      falVideoProvider.validate({ model: kling, prompt: "a fox", size: "1000x777" }, undefined);
    } catch (error) {
      caught = error;
    }
    expect(InvalidRequestError.isInstance(caught)).toBe(true);
    expect((caught as InvalidRequestError).field).toBe("size");
  });

  it("keeps the endpoint in the job id; status, result and cancel use owner/alias", () => {
    expect(falApp(kling)).toBe("fal-ai/kling-video");
    expect(falApp("workflows/me/pipeline/run")).toBe("workflows/me/pipeline");
    const id = falJobId(kling, "0a1b");
    expect(id).toBe(`${kling}/requests/0a1b`);
    expect(parseFalJobId(id)).toEqual({
      endpoint: kling,
      requestId: "0a1b",
      app: "fal-ai/kling-video",
    });
    expect(() => parseFalJobId("video_123")).toThrow(/<endpoint>\/requests\/<request id>/);
  });

  it("sends the key as `Key …` and no idempotency header (fal honours none)", () => {
    expect(falVideoProvider.authHeaders("k-1")).toEqual({ authorization: "Key k-1" });
    expect(falVideoProvider.idempotencyHeader).toBeUndefined();
    expect(falVideoProvider.settlement).toEqual(["none"]);
  });
});

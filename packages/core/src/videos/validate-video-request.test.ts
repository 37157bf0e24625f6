import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../errors/index.js";
import { estimateVideoCredits } from "./estimate-video-credits.js";
import type { VideoCreateParams, VideoModelCatalog } from "./types.js";
import { validateVideoRequest } from "./validate-video-request.js";
import { findVideoRequestProblems } from "./video-request-problems.js";

const catalog: VideoModelCatalog = [
  {
    id: "veo-3-fast",
    seconds: { min: 1, max: 8 },
    sizes: ["1280x720", "720x1280"],
    image: false,
    params: {
      seed: { type: "integer" },
      aspect_ratio: { type: "string", enum: ["16:9", "9:16"] },
      guidance: { type: "number", minimum: 0, maximum: 20 },
      generate_audio: { type: "boolean" },
    },
    price: { perClip: 10, perSecond: 2 },
  },
  {
    id: "veo-3-long",
    seconds: { min: 1, max: 20 },
    sizes: { width: { min: 480, max: 1920 }, height: { min: 480, max: 1920 } },
    image: true,
    params: {
      seed: { type: "integer" },
      guidance: { type: "number", minimum: 0, maximum: 50 },
      last_frame: { type: "image" },
    },
  },
  { id: "sora-2", seconds: [4, 8, 12], sizes: ["1280x720", "720x1280"] },
  { id: "mystery" },
];

function problems(params: Partial<VideoCreateParams>) {
  return findVideoRequestProblems({ prompt: "a fox", ...params } as VideoCreateParams, catalog);
}

describe("findVideoRequestProblems", () => {
  it("names the limit and the nearest model that accepts the request", () => {
    expect(problems({ model: "veo-3-fast", seconds: 12 })).toEqual([
      {
        field: "seconds",
        message: "`seconds: 12` is over veo-3-fast's 8; veo-3-long allows 1 to 20 seconds",
        allowed: "1 to 8 seconds",
        suggestion: "veo-3-long",
      },
    ]);
    const [listed] = problems({ model: "sora-2", seconds: 6 });
    expect(listed?.message).toBe(
      "`seconds: 6` is not one of sora-2's 4, 8 or 12 seconds; veo-3-fast allows 1 to 8 seconds",
    );
  });

  it("checks sizes as a list or as width and height ranges", () => {
    expect(problems({ model: "veo-3-fast", size: "1920x1080" })[0]).toMatchObject({
      field: "size",
      message:
        "`size: 1920x1080` is not offered by veo-3-fast (1280x720 or 720x1280); veo-3-long offers 480–1920 wide and 480–1920 high",
    });
    expect(problems({ model: "veo-3-long", size: "1920x1080" })).toEqual([]);
    expect(problems({ model: "veo-3-long", size: "320x240" })[0]?.field).toBe("size");
  });

  it("refuses a reference image where the model takes none", () => {
    const [problem] = problems({ model: "veo-3-fast", image: "https://example.com/a.png" });
    expect(problem?.field).toBe("image");
    expect(problem?.message).toBe(
      "veo-3-fast does not take a reference image; veo-3-long takes a reference image",
    );
    expect(problems({ model: "veo-3-long", image: "https://example.com/a.png" })).toEqual([]);
  });

  it("checks every provider parameter: declared, type, allowed value, range", () => {
    const found = problems({
      model: "veo-3-fast",
      params: { seed: 1.5, aspect_ratio: "4:3", guidance: 25, colour: "red", generate_audio: true },
    });
    expect(found.map((problem) => problem.field)).toEqual([
      "params.seed",
      "params.aspect_ratio",
      "params.guidance",
      "params.colour",
    ]);
    expect(found[0]?.message).toBe("`params.seed` must be an integer for veo-3-fast; got 1.5");
    expect(found[1]?.message).toBe(
      '`params.aspect_ratio: "4:3"` is not allowed by veo-3-fast (allowed: 16:9, 9:16)',
    );
    // No other model takes this whole request (veo-3-long has no aspect_ratio), so none is named.
    expect(found[2]?.message).toBe("`params.guidance: 25` is over veo-3-fast's maximum of 20");
    expect(problems({ model: "veo-3-fast", params: { guidance: 25 } })[0]?.message).toBe(
      "`params.guidance: 25` is over veo-3-fast's maximum of 20; veo-3-long accepts `params.guidance`",
    );
    expect(found[3]?.message).toBe(
      "`params.colour` is not a parameter of veo-3-fast (it takes seed, aspect_ratio, guidance, generate_audio)",
    );
  });

  it("checks image parameters and refuses params named like the request's own fields", () => {
    expect(
      problems({ model: "veo-3-long", params: { last_frame: new Uint8Array([1, 2]) } })[0],
    ).toMatchObject({ field: "params.last_frame" });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]);
    expect(problems({ model: "veo-3-long", params: { last_frame: png } })).toEqual([]);
    expect(problems({ model: "veo-3-long", params: { model: "x" } })[0]?.message).toContain(
      "set it at the top level",
    );
  });

  it("refuses an unknown model with a guess, and leaves unknown limits unchecked", () => {
    const [problem] = problems({ model: "veo-3-fats" });
    expect(problem?.field).toBe("model");
    expect(problem?.message).toContain("did you mean veo-3-fast?");
    expect(problems({ model: "mystery", seconds: 99, size: "1x1", params: { any: 1 } })).toEqual(
      [],
    );
  });

  it("checks only shapes without a catalog", () => {
    const shapes = (params: Partial<VideoCreateParams>) =>
      findVideoRequestProblems({ model: "m", prompt: "p", ...params } as VideoCreateParams);
    expect(shapes({ seconds: 999, size: "9999x9999" })).toEqual([]);
    expect(shapes({ seconds: "4.5" }).map((problem) => problem.field)).toEqual(["seconds"]);
    expect(shapes({ size: "big" }).map((problem) => problem.field)).toEqual(["size"]);
    expect(shapes({ prompt: "" }).map((problem) => problem.field)).toEqual(["prompt"]);
    expect(shapes({ image: "ftp://x" }).map((problem) => problem.field)).toEqual(["image"]);
  });
});

describe("validateVideoRequest", () => {
  it("throws InvalidRequestError with the first field and every problem", () => {
    let caught: unknown;
    try {
      validateVideoRequest({ model: "veo-3-fast", prompt: "p", seconds: 9, size: "1x1" }, catalog);
    } catch (error) {
      caught = error;
    }
    expect(InvalidRequestError.isInstance(caught)).toBe(true);
    const error = caught as InvalidRequestError;
    expect(error.field).toBe("seconds");
    expect(error.problems.map((problem) => problem.field)).toEqual(["seconds", "size"]);
    expect(error.message).toContain("over veo-3-fast's 8");
    expect(error.message).toContain("size: 1x1");
    expect(() =>
      validateVideoRequest({ model: "veo-3-fast", prompt: "p", seconds: 8 }, catalog),
    ).not.toThrow();
  });
});

describe("estimateVideoCredits", () => {
  it("adds the clip price and the price per second, and knows when it cannot", () => {
    expect(estimateVideoCredits(catalog[0]!, 8)).toBe(26);
    expect(estimateVideoCredits({ id: "x", price: { perSecond: 3 } }, 4)).toBe(12);
    expect(estimateVideoCredits({ id: "x", price: { perClip: 5 } }, 4)).toBe(5);
    // By resolution: 854x480 for 2 s at 10 per megapixel-second is 8.2, billed 9.
    expect(estimateVideoCredits({ id: "x", price: { perMegapixelSecond: 10 } }, 2, "854x480")).toBe(
      9,
    );
    expect(
      estimateVideoCredits({ id: "x", price: { perMegapixelSecond: 10 } }, 4, "1280x720"),
    ).toBe(37);
    expect(estimateVideoCredits({ id: "x", price: { perMegapixelSecond: 10 } }, 2)).toBeUndefined();
    expect(estimateVideoCredits(catalog[2]!, 8)).toBeUndefined();
  });

  it("prices in another unit exactly: nothing is rounded up to a whole unit", () => {
    const byResolution = { id: "x", price: { perMegapixelSecond: 0.01 } };
    expect(estimateVideoCredits(byResolution, 2, "854x480", "usd")).toBe(0.0081984);
    expect(estimateVideoCredits(byResolution, 2, "854x480")).toBe(1);
    expect(estimateVideoCredits({ id: "x", price: { perSecond: 0.07 } }, 3, undefined, "usd")).toBe(
      0.21,
    );
  });
});

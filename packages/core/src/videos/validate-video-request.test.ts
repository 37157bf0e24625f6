import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../errors/index.js";
import { referenceVideoModels } from "./catalog.js";
import { validateVideoRequest } from "./validate-video-request.js";

function fieldOf(run: () => void): { field: string; message: string } | undefined {
  try {
    run();
  } catch (error) {
    if (InvalidRequestError.isInstance(error))
      return { field: error.field, message: error.message };
    throw error;
  }
  return undefined;
}

describe("validateVideoRequest", () => {
  it("knows the three reference models", () => {
    expect(referenceVideoModels.map((model) => [model.id, model.maxSeconds])).toEqual([
      ["reel-video-1", 10],
      ["reel-video-2-lite", 8],
      ["reel-video-3-long", 20],
    ]);
  });

  it("rejects seconds beyond the model maximum, naming the limit", () => {
    const problem = fieldOf(() =>
      validateVideoRequest({ model: "reel-video-2-lite", prompt: "p", seconds: "9" }),
    );
    expect(problem?.field).toBe("seconds");
    expect(problem?.message).toMatch(/reel-video-2-lite.*8 seconds/);
    expect(
      fieldOf(() => validateVideoRequest({ model: "reel-video-1", prompt: "p", seconds: 0 }))
        ?.field,
    ).toBe("seconds");
    expect(
      fieldOf(() => validateVideoRequest({ model: "reel-video-1", prompt: "p", seconds: "4.5" }))
        ?.field,
    ).toBe("seconds");
  });

  it("rejects an unsupported size, listing the supported ones", () => {
    const problem = fieldOf(() =>
      validateVideoRequest({ model: "reel-video-1", prompt: "p", size: "854x480" }),
    );
    expect(problem?.field).toBe("size");
    expect(problem?.message).toContain("1280x720, 720x1280, 1920x1080, 1080x1920");
    expect(
      fieldOf(() => validateVideoRequest({ model: "reel-video-1", prompt: "p", size: "big" }))
        ?.field,
    ).toBe("size");
  });

  it("accepts valid requests and does not judge unknown models", () => {
    expect(
      fieldOf(() =>
        validateVideoRequest({
          model: "reel-video-3-long",
          prompt: "p",
          seconds: 20,
          size: "640x480",
        }),
      ),
    ).toBeUndefined();
    expect(
      fieldOf(() =>
        validateVideoRequest({ model: "someone-else", prompt: "p", seconds: 99, size: "1x1" }),
      ),
    ).toBeUndefined();
    expect(fieldOf(() => validateVideoRequest({ model: "reel-video-1", prompt: "" }))?.field).toBe(
      "prompt",
    );
  });

  it("uses the catalog it is given", () => {
    const catalog = [{ id: "custom", maxSeconds: 2, sizes: ["10x10"] }];
    expect(
      fieldOf(() => validateVideoRequest({ model: "custom", prompt: "p", seconds: 3 }, catalog))
        ?.field,
    ).toBe("seconds");
  });
});

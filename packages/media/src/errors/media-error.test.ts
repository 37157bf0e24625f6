import { ReelsmithError } from "@reelsmith/core/errors";
import { describe, expect, it } from "vitest";
import { FfmpegNotFoundError } from "./ffmpeg-not-found-error.js";
import { MediaAbortError } from "./media-abort-error.js";
import { MediaError } from "./media-error.js";
import { MixInputError } from "./mix-input-error.js";

describe("MediaError", () => {
  it("is a ReelsmithError, recognised per class by its marker", () => {
    const error = new MixInputError("mix.music", "no such file");
    expect(MixInputError.isInstance(error)).toBe(true);
    expect(MediaError.isInstance(error)).toBe(true);
    expect(ReelsmithError.isInstance(error)).toBe(true);
    expect(MediaAbortError.isInstance(error)).toBe(false);
    const foreign = Object.assign(new Error("from another copy"), {
      [Symbol.for("reelsmith.error.MediaError")]: true,
      [Symbol.for("reelsmith.error.MediaAbortError")]: true,
    });
    expect(MediaAbortError.isInstance(foreign)).toBe(true);
  });

  it("says what it means for the caller and keeps it in its JSON", () => {
    expect(new MediaAbortError().category).toBe("interrupted");
    expect(new MediaAbortError().toJSON()).toEqual({
      name: "MediaAbortError",
      code: "media_aborted",
      message: "The media operation was aborted",
      category: "interrupted",
    });
    const missing = new FfmpegNotFoundError("ffmpeg", ["PATH"]);
    expect(missing.category).toBe("failed");
    expect(missing.hint).toBe("install ffmpeg, or set FFMPEG_PATH to its binary");
  });
});

import { describe, expect, it } from "vitest";
import { UnsupportedCapabilityError } from "../errors/unsupported-capability-error.js";
import type { FfmpegTools } from "./locate-ffmpeg.js";
import { requireCapabilities } from "./require-capability.js";

const tools: FfmpegTools = {
  ffmpeg: { path: "/opt/ffmpeg", version: "N-47683-g0e8eb07980-static", source: "npm" },
  ffprobe: { path: "/opt/ffprobe", version: "N-66595-gc2b38619c0-static", source: "npm" },
  capabilities: {
    libx264: true,
    aac: true,
    drawtext: true,
    subtitles: true,
    xfade: false,
    transitions: true,
  },
  fontFile: "/opt/DejaVuSans.ttf",
};

describe("requireCapabilities", () => {
  it("passes when everything is there", () => {
    expect(() => requireCapabilities(tools, ["libx264", "aac", "drawtext"])).not.toThrow();
  });

  it("names the missing capability and the ffmpeg version", () => {
    const error = (() => {
      try {
        requireCapabilities(tools, ["libx264", "xfade"]);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedCapabilityError);
    expect(error).toMatchObject({
      capability: "xfade",
      version: "N-47683-g0e8eb07980-static",
      code: "unsupported_capability",
    });
    expect((error as Error).message).toMatch(
      /N-47683-g0e8eb07980-static does not support xfade.*4\.3/,
    );
  });
});

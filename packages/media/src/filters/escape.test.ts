import { describe, expect, it } from "vitest";
import { concatListLine, escapeFilterValue, parseSize } from "./escape.js";

describe("escapeFilterValue", () => {
  it("escapes both filtergraph levels (the ffmpeg-filters manual's own example)", () => {
    expect(
      escapeFilterValue("this is a 'string': may contain one, or more, special characters"),
    ).toBe("this is a \\\\\\'string\\\\\\'\\\\: may contain one\\, or more\\, special characters");
  });

  it("escapes brackets, semicolons and backslashes in paths", () => {
    expect(escapeFilterValue("/a [b];c\\d")).toBe("/a \\[b\\]\\;c\\\\\\\\d");
  });
});

describe("concatListLine", () => {
  it("quotes a path and writes each single quote as '\\''", () => {
    expect(concatListLine("/clips/it's a clip.mp4")).toBe("file '/clips/it'\\''s a clip.mp4'");
    expect(concatListLine("/clips/-dash ü #1.mp4")).toBe("file '/clips/-dash ü #1.mp4'");
  });

  it("rejects line breaks, which the list format cannot hold", () => {
    expect(() => concatListLine("/clips/a\nb.mp4")).toThrow(TypeError);
  });
});

describe("parseSize", () => {
  it("reads WIDTHxHEIGHT and refuses odd or malformed sizes", () => {
    expect(parseSize("1280x720")).toEqual({ width: 1280, height: 720 });
    expect(() => parseSize("1281x720")).toThrow(/even/);
    expect(() => parseSize("1280:720")).toThrow(/WIDTHxHEIGHT/);
    expect(() => parseSize("0x720")).toThrow();
  });
});

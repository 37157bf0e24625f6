import { describe, expect, it } from "vitest";
import { toSrt, toVtt } from "./transcript-formats.js";

describe("transcript formats", () => {
  const segments = [
    { text: "The storm rolls in.", start: 0.15, end: 1.2 },
    { text: "Twelve ships wait.", start: 1.6, end: 3723.5 },
  ];
  it("writes SubRip with commas and numbered cues", () => {
    expect(toSrt(segments)).toBe(
      "1\n00:00:00,150 --> 00:00:01,200\nThe storm rolls in.\n\n2\n00:00:01,600 --> 01:02:03,500\nTwelve ships wait.\n",
    );
  });
  it("writes WebVTT with its header and dots", () => {
    expect(toVtt(segments)).toBe(
      "WEBVTT\n\n00:00:00.150 --> 00:00:01.200\nThe storm rolls in.\n\n00:00:01.600 --> 01:02:03.500\nTwelve ships wait.\n",
    );
  });
});

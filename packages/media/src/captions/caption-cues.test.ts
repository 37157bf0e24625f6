import { describe, expect, it } from "vitest";
import { clipStarts } from "../concat/transition-graph.js";
import { CaptionsInputError } from "../errors/captions-input-error.js";
import { captionCues } from "./caption-cues.js";

const texts = ["Dawn", "Storm", "Calm"];

describe("captionCues", () => {
  it("changes captions exactly where the clips meet without a transition", () => {
    expect(captionCues({ texts, durations: [2, 3.5, 1.25] })).toEqual([
      { index: 0, start: 0, end: 2, text: "Dawn" },
      { index: 1, start: 2, end: 5.5, text: "Storm" },
      { index: 2, start: 5.5, end: 6.75, text: "Calm" },
    ]);
  });

  it("changes captions at the middle of each transition and ends with the shorter video", () => {
    // Clips start at 0, 1.5 and 4.5 (concat's layout); the video lasts 6.75 − 2 × 0.5.
    expect(
      captionCues({ texts, durations: [2, 3.5, 1.25], transition: { duration: 0.5 } }),
    ).toEqual([
      { index: 0, start: 0, end: 1.75, text: "Dawn" },
      { index: 1, start: 1.75, end: 4.75, text: "Storm" },
      { index: 2, start: 4.75, end: 5.75, text: "Calm" },
    ]);
  });

  it("agrees with the layout concat joins transitions with", () => {
    const durations = [1.2, 1.7, 1.0, 2.25];
    const { starts, total } = clipStarts(durations, 0.4);
    const cues = captionCues({
      texts: ["a", "b", "c", "d"],
      durations,
      transition: { duration: 0.4 },
    });
    cues.slice(1).forEach((cue, index) => {
      expect(cue.start).toBeCloseTo((starts[index + 1] ?? 0) + 0.2, 9);
      expect(cues[index]?.end).toBe(cue.start);
    });
    expect(cues[3]?.end).toBeCloseTo(total, 9);
  });

  it("ignores a transition for a single clip", () => {
    expect(captionCues({ texts: ["Only"], durations: [3], transition: { duration: 5 } })).toEqual([
      { index: 0, start: 0, end: 3, text: "Only" },
    ]);
  });

  it("keeps an empty text as an uncaptioned stretch", () => {
    expect(captionCues({ texts: ["", "Storm"], durations: [1, 1] })[0]).toEqual({
      index: 0,
      start: 0,
      end: 1,
      text: "",
    });
  });

  it("refuses an empty text list, mismatched lengths, bad durations and long transitions", () => {
    const attempt = (input: Parameters<typeof captionCues>[0]) => {
      try {
        captionCues(input);
      } catch (error) {
        return error;
      }
      throw new Error("expected an error");
    };
    expect(attempt({ texts: [], durations: [] })).toMatchObject({
      code: "invalid_captions",
      option: "texts",
      message: expect.stringMatching(/non-empty list/),
    });
    expect(attempt({ texts, durations: [1, 2] })).toMatchObject({
      option: "durations",
      message: "Expected one duration per caption: 3 texts but 2 durations",
    });
    expect(attempt({ texts, durations: [1, 0, 2] })).toMatchObject({
      option: "durations",
      index: 1,
    });
    expect(attempt({ texts, durations: [1, Number.NaN, 2] })).toMatchObject({ index: 1 });
    expect(attempt({ texts, durations: [2, 1, 2], transition: { duration: 1 } })).toMatchObject({
      option: "transition.duration",
      index: 1,
      message: expect.stringMatching(/shorter than the shortest clip \(1s\)/),
    });
    expect(attempt({ texts, durations: [1, 1, 1], transition: { duration: -1 } })).toBeInstanceOf(
      CaptionsInputError,
    );
  });
});

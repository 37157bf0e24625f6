import { describe, expect, it } from "vitest";
import { formatWaiting } from "./format-waiting.js";

describe("formatWaiting", () => {
  it("names each gate with its question, what it shows and its deadline, then what approving costs", () => {
    const lines = formatWaiting({
      type: "run.waiting",
      seq: 9,
      time: "2026-01-01T10:00:00.000Z",
      gates: [
        {
          step: "review",
          reason: "waits for approval: Read the scenes",
          details: {
            message: "Read the scenes",
            deadline: "2026-01-02T10:00:00.000Z",
            show: [[{ title: "Rain" }], "x".repeat(500)],
          },
        },
      ],
      next: {
        credits: 27,
        complete: true,
        steps: { clips: { perUnit: 9, units: 3, credits: 27 } },
      },
    });
    expect(lines[0]).toBe(
      "waiting at review: Read the scenes (waits until 2026-01-02T10:00:00.000Z)",
    );
    expect(lines[1]).toBe('  shows: [{"title":"Rain"}]');
    // A long value is cut, never a wall of text.
    expect(lines[2]).toBe(`  shows: ${"x".repeat(400)}…`);
    expect(lines.slice(3)).toEqual(["after approval: 27 credits more", "  clips  3 × 9 = 27"]);
  });

  it("says when part of what comes next is known only once it runs", () => {
    const lines = formatWaiting({
      type: "run.waiting",
      seq: 2,
      time: "2026-01-01T10:00:00.000Z",
      gates: [{ step: "gate", reason: "waits for approval: ok?" }],
      next: { credits: 0, complete: false, steps: { clips: { perUnit: 9 } } },
    });
    expect(lines).toEqual([
      "waiting at gate: waits for approval: ok?",
      "after approval: at least 0 credits more, the rest known at run time",
      "  clips  9 per item × N (N known at run time)",
    ]);
  });

  it("lists a shown value that is an image file, or a list of them, file by file", () => {
    const lines = formatWaiting({
      type: "run.waiting",
      seq: 5,
      time: "2026-01-01T10:00:00.000Z",
      gates: [
        {
          step: "review",
          reason: "waits for approval: Keyframes ready",
          details: {
            message: "Keyframes ready",
            show: [
              "/runs/x/images/characters-0-1.png",
              ["/runs/x/keyframes/scene-0.png", "/runs/x/keyframes/scene-1.png"],
              ["/runs/x/keyframes/scene-0.png", "notes.txt"],
            ],
          },
        },
      ],
      next: { credits: 8, complete: true, steps: { clips: { perUnit: 4, units: 2, credits: 8 } } },
    });
    expect(lines.slice(0, 7)).toEqual([
      "waiting at review: Keyframes ready",
      "  shows 1 image (thumbnails in the run's report.html):",
      "    /runs/x/images/characters-0-1.png",
      "  shows 2 images (thumbnails in the run's report.html):",
      "    /runs/x/keyframes/scene-0.png",
      "    /runs/x/keyframes/scene-1.png",
      // A list that is not only images is shown as a value.
      '  shows: ["/runs/x/keyframes/scene-0.png","notes.txt"]',
    ]);
  });

  it("says approving costs a range when the steps behind read outputs not made yet, and what the cache holds", () => {
    const lines = formatWaiting({
      type: "run.waiting",
      seq: 9,
      time: "2026-01-01T10:00:00.000Z",
      gates: [{ step: "review", reason: "waits for approval: ok?" }],
      next: {
        credits: 49,
        creditsAtMost: 93,
        complete: false,
        steps: {
          narration: { perUnit: 2, units: 3, credits: 6 },
          clips: { units: 2, cached: 1, credits: 43, creditsAtMost: 87 },
        },
      },
    });
    expect(lines).toEqual([
      "waiting at review: waits for approval: ok?",
      "after approval: between 49 and 93 credits more",
      "  narration  3 × 2 = 6",
      "  clips      2 items: between 43 and 87 (1 from the cache, free)",
    ]);
  });
});

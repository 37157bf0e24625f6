import { describe, expect, it } from "vitest";
import { stepPositions } from "./step-positions.js";
import { loadPipeline } from "./validate-pipeline.js";

describe("stepPositions", () => {
  it("places each step at the start of its entry, whatever its first field", () => {
    const source = [
      "name: x",
      "steps:",
      "  - id: a",
      "    retry: { attempts: 2 }",
      "    video:",
      "      prompt: hi",
      "  - { id: b, needs: [a], ffmpeg: { concat: [] } }",
    ].join("\n");
    const positions = stepPositions(source);
    expect(positions.get("a")).toEqual({ line: 3, column: 5 });
    expect(positions.get("b")).toEqual({ line: 7, column: 5 });
  });

  it("agrees with where validation places a step (positionOf of its entry)", async () => {
    const source = [
      "name: x",
      "steps:",
      "  - id: story",
      "    chat:",
      "      model: reel-chat-1",
      "      prompt: hi",
      "  - needs: [story]",
      "    id: clip",
      "    video:",
      "      model: reel-video-1",
      "      prompt: a fox",
      "",
    ].join("\n");
    const loaded = await loadPipeline({ source, path: "p.yaml" });
    const positions = stepPositions(source);
    for (const [index, id] of ["story", "clip"].entries()) {
      expect(positions.get(id)).toEqual(loaded.positionOf(["steps", index]));
    }
  });

  it("gives nothing for text that is not a pipeline", () => {
    expect(stepPositions("{{{").size).toBe(0);
    expect(stepPositions(undefined).size).toBe(0);
  });
});

import { describe, expect, it } from "vitest";
import { stepLocations } from "./step-locations.js";

describe("stepLocations", () => {
  it("finds each step's kind key, not its other fields", () => {
    const source = [
      "name: x",
      "steps:",
      "  - id: a",
      "    retry: { attempts: 2 }",
      "    video:",
      "      prompt: hi",
      "  - { id: b, needs: [a], ffmpeg: { concat: [] } }",
    ].join("\n");
    const locations = stepLocations(source);
    expect(locations.get("a")).toEqual({ line: 5, column: 5 });
    expect(locations.get("b")?.line).toBe(7);
  });

  it("gives nothing for text that is not a pipeline", () => {
    expect(stepLocations("{{{").size).toBe(0);
    expect(stepLocations(undefined).size).toBe(0);
  });
});

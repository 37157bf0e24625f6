import { describe, expect, it } from "vitest";
import { builtInKindChecks, isBuiltInKindSet, stepKindNames } from "./built-in-kinds.js";
import { stepDefinitions } from "./definitions.js";

describe("built-in kinds without their schemas", () => {
  it("list the kinds, in order, and the checks of the full definitions", () => {
    expect(stepKindNames).toEqual(stepDefinitions.map((definition) => definition.kind));
    expect(builtInKindChecks).toEqual(
      stepDefinitions.map((definition) => ({ kind: definition.kind, check: definition.check })),
    );
  });

  it("tell the built-in set from sets with custom or missing kinds", () => {
    expect(isBuiltInKindSet(["ffmpeg", "chat", "video"])).toBe(true);
    expect(isBuiltInKindSet(["chat", "video"])).toBe(false);
    expect(isBuiltInKindSet(["chat", "video", "ffmpeg", "echo"])).toBe(false);
    expect(isBuiltInKindSet(["chat", "video", "echo"])).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { takeFilePath } from "./take-files.js";
import { withTakeRequest } from "./take-request.js";

describe("a take's request", () => {
  it("replaces fields and merges params field by field", () => {
    expect(
      withTakeRequest(
        { prompt: "a fox", model: "m", params: { seed: 1, style: "ink" } },
        { prompt: "a wolf", params: { seed: 7 } },
      ),
    ).toEqual({ prompt: "a wolf", model: "m", params: { seed: 7, style: "ink" } });
    expect(withTakeRequest({ prompt: "a fox" }, { params: { seed: 2 } })).toEqual({
      prompt: "a fox",
      params: { seed: 2 },
    });
  });

  it("is the step's request when the take changes nothing", () => {
    const spec = { prompt: "a fox" };
    expect(withTakeRequest(spec, undefined)).toBe(spec);
    expect(withTakeRequest(spec, {})).toBe(spec);
  });

  it("keeps a `__proto__` field a field", () => {
    const changed = withTakeRequest({}, JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.keys(changed)).toEqual(["__proto__"]);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe("a take's file name", () => {
  it("puts the take's number before the extension", () => {
    expect(takeFilePath("clips/scene-1.mp4", 1)).toBe("clips/scene-1.take-1.mp4");
    expect(takeFilePath("frames/last.v2.png", 3)).toBe("frames/last.v2.take-3.png");
    expect(takeFilePath("notes", 2)).toBe("notes.take-2");
  });
});

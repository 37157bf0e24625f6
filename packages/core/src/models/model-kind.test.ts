import { describe, expect, it } from "vitest";
import { dialectOfModelList, modelKind } from "./model-kind.js";

describe("modelKind", () => {
  it("reads a type, video metadata or chat fields; an untyped id is unknown", () => {
    expect(modelKind({ id: "v", type: "video" })).toBe("video");
    expect(modelKind({ id: "v", video: { seconds: [4] } })).toBe("video");
    expect(modelKind({ id: "c", type: "chat" })).toBe("chat");
    expect(modelKind({ id: "c", capabilities: { json: true } })).toBe("chat");
    expect(modelKind({ id: "veo-3-fast", object: "model", owned_by: "acme" })).toBe("unknown");
    expect(modelKind({ id: "x", type: "embedding" })).toBe("unknown");
  });

  it("reads the media types a service lists: image, speech (tts), transcription (stt)", () => {
    expect(modelKind({ id: "i", type: "image" })).toBe("image");
    expect(modelKind({ id: "s", type: "Speech" })).toBe("speech");
    expect(modelKind({ id: "s", type: "tts" })).toBe("speech");
    expect(modelKind({ id: "t", type: "transcription" })).toBe("transcription");
    expect(modelKind({ id: "t", type: "stt" })).toBe("transcription");
    // A word an object's prototype knows is no type.
    expect(modelKind({ id: "x", type: "constructor" })).toBe("unknown");
  });
});

describe("dialectOfModelList", () => {
  it("tells OpenAI's plain list from the reference interface's typed one, or says it cannot", () => {
    const plain = { object: "model", created: 1, owned_by: "acme" };
    expect(
      dialectOfModelList([
        { id: "a", ...plain },
        { id: "veo", ...plain },
      ]).dialect,
    ).toBe("openai");
    expect(
      dialectOfModelList([
        { id: "a", capabilities: {} },
        { id: "v", type: "video" },
      ]).dialect,
    ).toBe("reference");
    expect(dialectOfModelList([{ id: "a" }, { id: "b", pricing: 1 }]).dialect).toBeUndefined();
    expect(dialectOfModelList([]).reason).toContain("could not tell");
  });
});

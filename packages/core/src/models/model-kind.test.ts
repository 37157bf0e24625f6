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
    expect(modelKind({ id: "i", type: "image" })).toBe("image");
    expect(modelKind({ id: "s", type: "speech" })).toBe("speech");
    expect(modelKind({ id: "t", type: "Transcription" })).toBe("transcription");
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
  it("is reference: with evidence from a typed list, by default from an OpenAI-shaped or empty one", () => {
    const plain = { object: "model", created: 1, owned_by: "acme" };
    const openaiShaped = dialectOfModelList([
      { id: "a", ...plain },
      { id: "veo", ...plain },
    ]);
    expect(openaiShaped).toMatchObject({ dialect: "reference", evidence: false });
    expect(openaiShaped.reason).toContain("could not be told");
    expect(openaiShaped.reason).toContain("pick openai only if");
    expect(
      dialectOfModelList([
        { id: "a", capabilities: {} },
        { id: "v", type: "video" },
      ]),
    ).toMatchObject({ dialect: "reference", evidence: true });
    expect(dialectOfModelList([]).reason).toContain("lists no models");
  });
});

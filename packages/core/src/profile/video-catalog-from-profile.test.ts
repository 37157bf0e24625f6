import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { exampleProfile } from "../__fixtures__/example-profile.js";
import { clientOptionsFromProfile } from "./client-options-from-profile.js";
import { parseDuration } from "./parse-duration.js";
import { profileJsonSchema } from "./profile-schema.js";
import { profileUnknowns } from "./profile-unknowns.js";
import { chatModelsFromProfile, videoCatalogFromProfile } from "./video-catalog-from-profile.js";

describe("videoCatalogFromProfile", () => {
  it("converts models to camelCase specs with normalised params", () => {
    const [fast, sora, fresh] = videoCatalogFromProfile(exampleProfile());
    expect(fast).toEqual({
      id: "veo-3-fast",
      seconds: { min: 1, max: 8 },
      sizes: ["1280x720", "720x1280"],
      image: true,
      params: {
        seed: { type: "integer" },
        negative_prompt: { type: "string" },
        aspect_ratio: { type: "string", enum: ["16:9", "9:16"] },
        generate_audio: { type: "boolean" },
        last_frame: { type: "image" },
        guidance: {
          type: "number",
          minimum: 0,
          maximum: 20,
          description: "How closely to follow the prompt",
        },
      },
      price: { perClip: 10, perSecond: 2 },
    });
    expect(sora).toEqual({
      id: "sora-2",
      seconds: [4, 8, 12],
      sizes: { width: { min: 480, max: 1920 }, height: { min: 480, max: 1920 } },
    });
    expect(fresh).toEqual({ id: "new-model" });
    expect(chatModelsFromProfile(exampleProfile())).toEqual([
      { id: "gpt-4o-mini", images: true, json: true, tools: true },
      { id: "text-only", images: false },
    ]);
  });
});

describe("profileUnknowns", () => {
  it("lists every field left unknown with its pointer", () => {
    const unknowns = profileUnknowns(exampleProfile());
    expect(unknowns.filter((item) => item.model === "veo-3-fast")).toEqual([]);
    expect(unknowns.filter((item) => item.model === "sora-2").map((item) => item.pointer)).toEqual([
      "/video_models/sora-2/image",
      "/video_models/sora-2/params",
      "/video_models/sora-2/price",
    ]);
    expect(unknowns.filter((item) => item.model === "new-model").map((item) => item.field)).toEqual(
      ["seconds", "sizes", "image", "params", "price"],
    );
    expect(
      unknowns.find((item) => item.model === "text-only" && item.field === "json"),
    ).toMatchObject({
      pointer: "/chat_models/text-only/json",
      section: "chat_models",
    });
  });
});

describe("clientOptionsFromProfile", () => {
  it("sets dialect, idempotency, listing, poll interval, catalog and base URL, never a key", () => {
    const options = clientOptionsFromProfile(exampleProfile());
    expect(options).toMatchObject({
      baseURL: "https://api.example.com/v1",
      dialect: "openai",
      honoursIdempotencyKeys: true,
      listsJobs: false,
      pollIntervalMs: 2000,
    });
    expect(options.videoModels?.map((model) => model.id)).toEqual([
      "veo-3-fast",
      "sora-2",
      "new-model",
    ]);
    expect(Object.keys(options)).not.toContain("apiKey");
    expect(clientOptionsFromProfile({})).toEqual({
      dialect: "reference",
      honoursIdempotencyKeys: false,
      listsJobs: false,
      videoModels: [],
    });
  });

  it("reads durations as ms, s, m or a number of seconds", () => {
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("5s")).toBe(5000);
    expect(parseDuration("1.5m")).toBe(90_000);
    expect(parseDuration(2)).toBe(2000);
    expect(() => parseDuration("soon")).toThrow(/"5s", "500ms"/);
  });
});

describe("the published schema file", () => {
  it("is the schema the validator uses (regenerate with pnpm generate:schema)", () => {
    const file = JSON.parse(
      readFileSync(new URL("../../schema/profile.schema.json", import.meta.url), "utf8"),
    );
    expect(file).toEqual(JSON.parse(JSON.stringify(profileJsonSchema)));
  });
});

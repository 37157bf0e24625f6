import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { profileUnknowns, validateProfile } from "@reelsmith/core/profile";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { profileSchemaReference } from "./profile-schema-reference.js";
import { starterProfile } from "./starter-profile.js";

describe("starterProfile", () => {
  const text = starterProfile({
    schema: "./node_modules/@reelsmith/core/schema/profile.schema.json",
    listedFrom: "https://media.example.com",
    baseURL: "https://media.example.com",
    chatModels: ["gpt-4o-mini", "veo-3-fast"],
    listedVideoModels: [
      {
        id: "kling-2",
        video: { seconds: [5, 10], sizes: ["1280x720"], image: true, params: { seed: "seedy" } },
      },
    ],
    namedVideoModels: ["veo-3-fast"],
  });

  it("is a valid profile that names its schema, holds no key and says where the key goes", () => {
    expect(text.split("\n")[0]).toBe(
      "# yaml-language-server: $schema=./node_modules/@reelsmith/core/schema/profile.schema.json",
    );
    const profile = parse(text);
    expect(validateProfile(profile)).toEqual([]);
    expect(profile.service).toEqual({
      base_url: "https://media.example.com",
      api_key_env: ["REELSMITH_API_KEY"],
      dialect: "reference",
      idempotency_keys: false,
      lists_jobs: false,
    });
    expect(text).toContain("  api_key_env: [REELSMITH_API_KEY]\n");
  });

  it("copies what the service lists, writes the rest as null with what to fill in", () => {
    const profile = parse(text);
    expect(profile.video_models["kling-2"]).toEqual({
      seconds: [5, 10],
      sizes: ["1280x720"],
      image: true,
      // The listed params do not read as a profile's: unknown rather than copied.
      params: null,
      price: null,
    });
    expect(profile.video_models["veo-3-fast"]).toEqual({
      seconds: null,
      sizes: null,
      image: null,
      params: null,
      price: null,
    });
    expect(text).toContain("    seconds: null # fill in: allowed clip lengths");
    expect(text).toContain("    price: null # fill in: credits per clip and/or per second");
    expect(text).toContain(
      "  # not in the service's model list: named with --video-model\n  veo-3-fast:\n",
    );
    // A model named as a video model is not a chat model too.
    expect(profile.chat_models).toEqual({ "gpt-4o-mini": null });
    expect(profileUnknowns(profile).filter((u) => u.section === "video_models")).toHaveLength(7);
  });

  it("leaves the base URL out (with a comment) when none was configured", () => {
    const offline = starterProfile({
      schema: "s.json",
      listedFrom: "the built-in simulator",
      chatModels: [],
      listedVideoModels: [],
      namedVideoModels: [],
      dialect: "openai",
    });
    const profile = parse(offline);
    expect(validateProfile(profile)).toEqual([]);
    expect(profile.service.base_url).toBeUndefined();
    expect(profile.service.dialect).toBe("openai");
    expect(offline).toContain("# base_url: https://…");
  });
});

describe("profileSchemaReference", () => {
  it("prefers the schema installed in the directory or a parent, else this CLI's own", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "reelsmith-schema-ref-"));
    try {
      const schemaDir = path.join(root, "node_modules", "@reelsmith", "core", "schema");
      await mkdir(schemaDir, { recursive: true });
      await mkdir(path.join(root, "config"));
      await writeFile(path.join(schemaDir, "profile.schema.json"), "{}");
      expect(profileSchemaReference(root)).toBe(
        "./node_modules/@reelsmith/core/schema/profile.schema.json",
      );
      expect(profileSchemaReference(path.join(root, "config"))).toBe(
        "../node_modules/@reelsmith/core/schema/profile.schema.json",
      );
      await rm(path.join(root, "node_modules"), { recursive: true });
      const own = profileSchemaReference(root);
      expect(own).toMatch(/profile\.schema\.json$/);
      expect(path.resolve(root, own)).toMatch(/core[/\\]schema[/\\]profile\.schema\.json$/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

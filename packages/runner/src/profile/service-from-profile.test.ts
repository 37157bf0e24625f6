import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadProfile } from "./load-profile.js";
import { serviceFromProfile } from "./service-from-profile.js";

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

describe("serviceFromProfile", () => {
  it("takes the key from the first set variable of api_key_env and says which", async () => {
    const loaded = await loadProfile(fixture("reference.yaml"));
    const service = serviceFromProfile(loaded, {
      EXAMPLE_MEDIA_KEY: "",
      REELSMITH_API_KEY: "sk-second",
    });
    expect(service).toMatchObject({
      baseURL: "https://media.example.com",
      apiKey: "sk-second",
      apiKeyVariable: "REELSMITH_API_KEY",
      apiKeyVariables: ["EXAMPLE_MEDIA_KEY", "REELSMITH_API_KEY"],
    });
    expect(
      serviceFromProfile(loaded, { EXAMPLE_MEDIA_KEY: "sk-first", REELSMITH_API_KEY: "x" }),
    ).toMatchObject({ apiKey: "sk-first", apiKeyVariable: "EXAMPLE_MEDIA_KEY" });
    const none = serviceFromProfile(loaded, {});
    expect(none.apiKey).toBeUndefined();
    expect(none.apiKeyVariable).toBeUndefined();
  });

  it("joins a key of parts (Kling's access and secret keys) from one variable each, all set", async () => {
    const loaded = await loadProfile(fixture("kling.yaml"));
    expect(
      serviceFromProfile(loaded, { KLING_ACCESS_KEY: "ak-1", KLING_SECRET_KEY: "sk-1" }),
    ).toMatchObject({
      apiKey: "ak-1:sk-1",
      apiKeyVariable: "KLING_ACCESS_KEY+KLING_SECRET_KEY",
      apiKeyVariables: ["KLING_ACCESS_KEY", "KLING_SECRET_KEY"],
    });
    const half = serviceFromProfile(loaded, { KLING_ACCESS_KEY: "ak-1" });
    expect(half.apiKey).toBeUndefined();
    expect(half.apiKeyVariable).toBeUndefined();
  });

  it("gives the client options the profile sets, never the key", async () => {
    const reference = serviceFromProfile(await loadProfile(fixture("reference.yaml")), {
      REELSMITH_API_KEY: "sk-secret",
    });
    expect(reference.clientOptions).toMatchObject({
      baseURL: "https://media.example.com",
      dialect: "reference",
      honoursIdempotencyKeys: true,
      listsJobs: false,
      pollIntervalMs: 2000,
    });
    expect(reference.clientOptions.videoModels?.map((model) => model.id)).toEqual([
      "veo-3-fast",
      "kling-2",
      "new-model",
    ]);
    expect(JSON.stringify(reference.clientOptions)).not.toContain("sk-secret");
    const openai = serviceFromProfile(await loadProfile(fixture("openai.yaml")), {});
    expect(openai.clientOptions).toMatchObject({
      dialect: "openai",
      listsJobs: true,
      honoursIdempotencyKeys: false,
      pollIntervalMs: 5000,
    });
  });

  it("has no base URL or key variables for a profile without a service section", async () => {
    const loaded = await loadProfile({
      source: "video_models:\n  veo-3-fast: { seconds: [4, 8] }\n",
      path: "inline.yaml",
    });
    const service = serviceFromProfile(loaded, { REELSMITH_API_KEY: "x" });
    expect(service.baseURL).toBeUndefined();
    expect(service.apiKeyVariables).toEqual([]);
    expect(service.clientOptions.dialect).toBe("reference");
  });
});

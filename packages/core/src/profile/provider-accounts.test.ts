import { describe, expect, it } from "vitest";
import type { ProviderProfile } from "./profile-types.js";
import { modelPriceUnits, modelProviders, providerAccounts } from "./provider-accounts.js";
import { validateProfile } from "./validate-profile.js";

/** Chat and images from the default service, clips from fal, voice from ElevenLabs. */
const multi: ProviderProfile = {
  service: { base_url: "https://api.example.com", api_key_env: ["EXAMPLE_API_KEY"] },
  providers: {
    fal: {
      dialect: "fal",
      base_url: "https://queue.fal.run",
      api_key_env: ["FAL_KEY"],
      max_concurrent_jobs: 2,
      unit: "usd",
      poll_interval: "2s",
    },
    voice: {
      dialect: "elevenlabs",
      base_url: "https://api.elevenlabs.io",
      api_key_env: ["ELEVENLABS_API_KEY"],
      unit: "characters",
      credits_per_unit: 1,
    },
  },
  chat_models: { "gpt-4o-mini": { json: true } },
  image_models: { "img-1": { price: { per_image: 4 } } },
  video_models: { "fal-ai/kling": { provider: "fal", price: { per_second: 0.07 } } },
  speech_models: { eleven: { provider: "voice", price: { per_1000_characters: 1000 } } },
};

describe("a profile with providers", () => {
  it("is valid, and names each account with its dialect, key variables, limits and unit", () => {
    expect(validateProfile(multi)).toEqual([]);
    const accounts = providerAccounts(multi);
    expect(accounts.map((account) => account.name)).toEqual(["fal", "voice"]);
    expect(accounts[0]).toMatchObject({
      apiKeyEnv: ["FAL_KEY"],
      maxConcurrentJobs: 2,
      unit: "usd",
      clientOptions: { dialect: "fal", baseURL: "https://queue.fal.run", pollIntervalMs: 2000 },
    });
    expect(accounts[0]?.creditsPerUnit).toBeUndefined();
    expect(accounts[1]).toMatchObject({ unit: "characters", creditsPerUnit: 1 });
    // Each account's client checks requests against the profile's catalogs.
    expect(accounts[0]?.clientOptions.videoModels?.map((model) => model.id)).toEqual([
      "fal-ai/kling",
    ]);
  });

  it("routes the models that name a provider, and leaves the others to service", () => {
    expect([...modelProviders(multi)]).toEqual([
      ["fal-ai/kling", "fal"],
      ["eleven", "voice"],
    ]);
  });

  it("gives the unit of each model not priced in credits, with its rate where stated", () => {
    expect(modelPriceUnits(multi)).toEqual([
      { id: "fal-ai/kling", provider: "fal", unit: "usd" },
      { id: "eleven", provider: "voice", unit: "characters", creditsPerUnit: 1 },
    ]);
    expect(modelPriceUnits({ video_models: { v: { price: { per_clip: 3 } } } })).toEqual([]);
  });

  it("refuses a model naming a provider the profile lacks, saying which ones it has", () => {
    const problems = validateProfile({
      ...multi,
      video_models: { "fal-ai/kling": { provider: "fall" } },
    });
    expect(problems).toEqual([
      {
        pointer: "/video_models/fal-ai~1kling/provider",
        code: "unknown_provider",
        message:
          "`video_models.fal-ai/kling.provider`: no provider `fall`; the profile's providers are fal or voice (add it under `providers:`, or remove `provider:` to use `service`)",
      },
    ]);
    const none = validateProfile({ speech_models: { eleven: { provider: "voice" } } });
    expect(none[0]?.message).toContain("the profile has no `providers:`");
  });

  it("refuses a provider without a dialect, a dialect not in the registry, an unknown unit and a bad limit", () => {
    const problems = validateProfile({
      providers: {
        a: { base_url: "https://a.test" },
        b: { dialect: "runway" },
        c: { dialect: "fal", unit: "yen", max_concurrent_jobs: 0 },
      },
    });
    const byPointer = Object.fromEntries(problems.map((problem) => [problem.pointer, problem]));
    expect(byPointer["/providers/a"]?.message).toBe("`providers.a`: `dialect` is missing");
    expect(byPointer["/providers/b/dialect"]?.message).toMatch(
      /^`providers\.b\.dialect`: "runway" is not allowed; use reference, openai, fal/,
    );
    expect(byPointer["/providers/c/unit"]?.message).toBe(
      '`providers.c.unit`: "yen" is not allowed; use credits, usd, eur or characters',
    );
    expect(byPointer["/providers/c/max_concurrent_jobs"]?.code).toBe("invalid_value");
  });

  it("refuses a key written in a provider, pointing at it", () => {
    const problems = validateProfile({ providers: { fal: { dialect: "fal", api_key: "x" } } });
    expect(problems[0]).toMatchObject({ pointer: "/providers/fal/api_key", code: "secret" });
  });
});

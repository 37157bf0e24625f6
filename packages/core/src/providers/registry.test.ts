import { describe, expect, it } from "vitest";
import { profileJsonSchema } from "../profile/profile-schema.js";
import {
  describeProviders,
  isProviderName,
  type ProviderEntry,
  providerNames,
  providers,
  speechProvider,
  videoProvider,
} from "./registry.js";

describe("the provider registry", () => {
  it("names each provider by the key it is listed under", () => {
    for (const name of providerNames) {
      const entry: ProviderEntry = providers[name];
      expect(entry.video ?? entry.speech).toBeDefined();
      if (entry.video) expect(entry.video.name).toBe(name);
      if (entry.speech) expect(entry.speech.name).toBe(name);
    }
    // The first three come first; every other provider is added after them, one line each.
    expect(providerNames.slice(0, 3)).toEqual(["reference", "openai", "fal"]);
    expect(new Set(providerNames).size).toBe(providerNames.length);
    expect(isProviderName("fal")).toBe(true);
    expect(isProviderName("toString")).toBe(false);
  });

  it("says which side a provider lacks, naming those that have it", () => {
    expect(speechProvider("elevenlabs").authHeaders("k")).toEqual({ "xi-api-key": "k" });
    expect(() => videoProvider("elevenlabs")).toThrow(/elevenlabs provider has no video API/);
    expect(() => speechProvider("fal")).toThrow(/has no speech API.*reference, openai, elevenlabs/);
  });

  it("is where the profile schema's dialects and their descriptions come from", () => {
    const dialect = (
      profileJsonSchema as unknown as {
        properties: {
          service: { properties: { dialect: { enum: string[]; description: string } } };
        };
      }
    ).properties.service.properties.dialect;
    expect(dialect.enum).toEqual(providerNames);
    expect(dialect.description).toContain(describeProviders());
  });
});

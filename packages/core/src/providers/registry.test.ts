import { describe, expect, it } from "vitest";
import { profileJsonSchema } from "../profile/profile-schema.js";
import { describeProviders, isProviderName, providerNames, providers } from "./registry.js";

describe("the provider registry", () => {
  it("names each provider by the key it is listed under", () => {
    for (const name of providerNames) expect(providers[name].video.name).toBe(name);
    expect(providerNames).toEqual(["reference", "openai", "fal", "kling"]);
    expect(isProviderName("fal")).toBe(true);
    expect(isProviderName("toString")).toBe(false);
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

import { describe, expect, it } from "vitest";
import { InvalidRequestError } from "../errors/invalid-request-error.js";
import { profileJsonSchema } from "../profile/profile-schema.js";
import {
  describeProviders,
  imageProvider,
  isProviderName,
  type ProviderEntry,
  providerAccess,
  providerNames,
  providers,
  speechProvider,
  transcriptionProvider,
  videoProvider,
} from "./registry.js";

describe("the provider registry", () => {
  it("names each provider by the key it is listed under", () => {
    for (const name of providerNames) {
      const entry: ProviderEntry = providers[name];
      const sides = [entry.video, entry.image, entry.speech, entry.transcription].filter(
        (side) => side !== undefined,
      );
      expect(sides.length, name).toBeGreaterThan(0);
      // Every side of one provider carries its name, key variable and auth header.
      for (const side of sides) {
        expect(side.name).toBe(name);
        expect(side.keyEnv).toBe(providerAccess(name).keyEnv);
        expect(side.authHeaders).toBe(side.authHeaders); // shape only;
        expect(side.idempotencyHeader).toBe(providerAccess(name).idempotencyHeader);
      }
    }
    // The first three come first; every other provider is added after them, one line each.
    expect(providerNames.slice(0, 3)).toEqual(["reference", "openai", "fal"]);
    expect(new Set(providerNames).size).toBe(providerNames.length);
    expect(isProviderName("fal")).toBe(true);
    expect(isProviderName("toString")).toBe(false);
  });

  it("gives the interface's and OpenAI's image and transcription sides, edits included", () => {
    for (const name of ["reference", "openai"] as const) {
      expect(imageProvider(name).edit).toBeTypeOf("function");
      expect(transcriptionProvider(name).transcribe).toBeTypeOf("function");
    }
    expect(() => imageProvider("kling")).toThrow(/kling provider has no image API.*reference/);
    expect(() => transcriptionProvider("fal")).toThrow(/has no transcription API/);
    // Refused as invalid input before anything is sent, never a TypeError.
    expect(() => imageProvider("kling")).toThrow(InvalidRequestError);
  });

  it("says which side a provider lacks, naming those that have it", () => {
    expect(speechProvider("elevenlabs").authHeaders("k")).toEqual({ "xi-api-key": "k" });
    expect(() => videoProvider("elevenlabs")).toThrow(/elevenlabs provider has no video API/);
    expect(() => speechProvider("kling")).toThrow(
      /has no speech API.*reference, openai, fal, elevenlabs/,
    );
    expect(speechProvider("fal").givesWordTimings).toBe(false);
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

import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadProfile } from "./load-profile.js";
import { serviceFromProfile } from "./service-from-profile.js";

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));

describe("serviceFromProfile with providers", () => {
  it("resolves each provider account with its own address, dialect, key and limit", async () => {
    const loaded = await loadProfile(fixture("providers.yaml"));
    const service = serviceFromProfile(loaded, {
      EXAMPLE_MEDIA_KEY: "sk-main",
      FAL_KEY: "fal-key",
      KLING_ACCESS_KEY: "ak",
      KLING_SECRET_KEY: "sk",
    });
    expect(service).toMatchObject({ baseURL: "https://media.example.com", apiKey: "sk-main" });
    expect(service.clientOptions.dialect).toBe("reference");
    const [fal, voice, kling] = service.accounts;
    expect(fal).toMatchObject({
      name: "fal",
      baseURL: "https://queue.fal.run",
      apiKey: "fal-key",
      apiKeyVariable: "FAL_KEY",
      maxConcurrentJobs: 2,
      clientOptions: { dialect: "fal" },
    });
    // A key not set stays unset, with the variables to name in "set …".
    expect(voice).toMatchObject({ name: "voice", apiKeyVariables: ["ELEVENLABS_API_KEY"] });
    expect(voice?.apiKey).toBeUndefined();
    // A key of parts is joined from one variable each, as for `service`.
    expect(kling).toMatchObject({
      apiKey: "ak:sk",
      apiKeyVariable: "KLING_ACCESS_KEY+KLING_SECRET_KEY",
    });
  });

  it("points at a model's unknown provider with its line and column", async () => {
    const source = [
      "providers:",
      "  fal: { dialect: fal }",
      "video_models:",
      "  clip-1:",
      "    provider: fall",
      "",
    ].join("\n");
    const error = await loadProfile({ source, path: "bad.yaml" }).catch(
      (caught: unknown) => caught,
    );
    expect(String((error as Error).message)).toContain("bad.yaml:5:15");
    expect(String((error as Error).message)).toContain(
      "no provider `fall`; the profile's providers are fal",
    );
  });
});

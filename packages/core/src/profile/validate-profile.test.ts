import { describe, expect, it } from "vitest";
import { exampleProfile } from "../__fixtures__/example-profile.js";
import { InvalidProfileError } from "../errors/invalid-profile-error.js";
import { providerNames } from "../providers/registry.js";
import { parseProfile } from "./parse-profile.js";
import { validateProfile } from "./validate-profile.js";

/** The providers a bad dialect's message lists: "reference, openai, fal or …", from the registry. */
const allowedDialects = `${providerNames.slice(0, -1).join(", ")} or ${providerNames.at(-1)}`;

describe("validateProfile", () => {
  it("accepts the documented profile, an empty one, and models with unknown limits", () => {
    expect(validateProfile(exampleProfile())).toEqual([]);
    expect(validateProfile({})).toEqual([]);
    expect(validateProfile({ video_models: { x: { seconds: null, price: null } } })).toEqual([]);
  });

  it("refuses unknown keys, naming the allowed ones, with a pointer to each", () => {
    const problems = validateProfile({
      service: { base_url: "https://x.test", dialekt: "openai" },
      video_models: { "veo-3": { secs: 4 } },
      extra: true,
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          pointer: "/service/dialekt",
          code: "unknown_key",
          message:
            "unknown key `dialekt` in `service`; allowed: base_url, api_key_env, dialect, idempotency_keys, lists_jobs, poll_interval",
        },
        {
          pointer: "/video_models/veo-3/secs",
          code: "unknown_key",
          message:
            "unknown key `secs` in `video_models.veo-3`; allowed: description, seconds, sizes, image, params, price, provider",
        },
        {
          pointer: "/extra",
          code: "unknown_key",
          message:
            "unknown key `extra` in the profile; allowed: service, providers, video_models, chat_models, image_models, speech_models, transcription_models",
        },
      ]),
    );
    expect(problems).toHaveLength(3);
  });

  it("refuses an unknown dialect, listing the registry's providers", () => {
    expect(validateProfile({ service: { dialect: "grpc" } })).toEqual([
      {
        pointer: "/service/dialect",
        code: "invalid_value",
        message: `\`service.dialect\`: "grpc" is not allowed; use ${allowedDialects}`,
      },
    ]);
  });

  it("says which value a misspelt one was meant to be, and nothing for one far from all", () => {
    expect(validateProfile({ service: { dialect: "refrence" } })).toEqual([
      {
        pointer: "/service/dialect",
        code: "invalid_value",
        message: `\`service.dialect\`: "refrence" is not allowed; did you mean \`reference\`? Use ${allowedDialects}`,
      },
    ]);
    expect(validateProfile({ service: { dialect: "Replicat" } })[0]?.message).toContain(
      "did you mean `replicate`?",
    );
    expect(validateProfile({ service: { dialect: "grpc" } })[0]?.message).not.toContain("mean");
  });

  it("refuses any key that looks like a secret, anywhere, and says where the key goes", () => {
    const problems = validateProfile({
      service: { api_key: "sk-live-123", apiKey: "x", authorization: "Bearer x" },
      video_models: { m: { params: { token: "string" } } },
      password: "hunter2",
    });
    expect(problems.map((problem) => [problem.pointer, problem.code])).toEqual([
      ["/service/api_key", "secret"],
      ["/service/apiKey", "secret"],
      ["/service/authorization", "secret"],
      ["/video_models/m/params/token", "secret"],
      ["/password", "secret"],
    ]);
    expect(problems[0]?.message).toContain("environment variable");
    expect(problems[0]?.message).toContain("api_key_env");
    // The secret's value never shows in a message.
    expect(JSON.stringify(problems)).not.toContain("sk-live-123");
    expect(validateProfile({ service: { api_key_env: ["MY_KEY"] } })).toEqual([]);
  });

  it("reports the branch a union value was meant for, or what the union allows", () => {
    expect(validateProfile({ video_models: { m: { seconds: { min: 1, mx: 8 } } } })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: "/video_models/m/seconds/mx", code: "unknown_key" }),
      ]),
    );
    const [wrongType] = validateProfile({ video_models: { m: { seconds: "8" } } });
    expect(wrongType).toMatchObject({ pointer: "/video_models/m/seconds", code: "invalid_value" });
    expect(wrongType?.message).toContain("a range { min, max } or a list");
    const [badParam] = validateProfile({ video_models: { m: { params: { seed: "int" } } } });
    expect(badParam?.pointer).toBe("/video_models/m/params/seed");
    expect(badParam?.message).toContain("integer, number, string, boolean, image");
    const [badSize] = validateProfile({ video_models: { m: { sizes: ["1280x720", "big"] } } });
    expect(badSize?.pointer).toBe("/video_models/m/sizes/1");
  });

  it("refuses ranges whose min is over their max, and bad durations", () => {
    expect(validateProfile({ video_models: { m: { seconds: { min: 9, max: 8 } } } })).toEqual([
      {
        pointer: "/video_models/m/seconds/min",
        code: "inconsistent",
        message: "`video_models.m.seconds`: min 9 is over max 8",
      },
    ]);
    expect(validateProfile({ service: { poll_interval: "soon" } })[0]?.pointer).toBe(
      "/service/poll_interval",
    );
  });

  it("parseProfile throws InvalidProfileError with every problem", () => {
    let caught: unknown;
    try {
      parseProfile({ service: { dialect: "x", token: "t" } });
    } catch (error) {
      caught = error;
    }
    expect(InvalidProfileError.isInstance(caught)).toBe(true);
    expect((caught as InvalidProfileError).problems).toHaveLength(2);
    expect((caught as InvalidProfileError).message).toContain("/service/token");
    expect(parseProfile(exampleProfile())).toEqual(exampleProfile());
  });

  it("refuses a model routed to an account whose dialect does not make its kind", () => {
    const problems = validateProfile({
      providers: {
        kling: { dialect: "kling", api_key_env: ["KLING_ACCESS_KEY", "KLING_SECRET_KEY"] },
      },
      image_models: { "kling-v1": { provider: "kling" } },
      video_models: { "kling-v2": { provider: "kling" } },
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      pointer: "/image_models/kling-v1/provider",
      code: "unserved_modality",
    });
    expect(problems[0]?.message).toContain(
      "`providers.kling` speaks kling, which makes no image (image_models); the dialects that do are reference, openai, fal or replicate",
    );
    expect(problems[0]?.message).toContain("or remove `provider:` to use `service` (reference)");
    // A model of `service` is held to its dialect too, at the model.
    const served = validateProfile({
      service: { dialect: "elevenlabs" },
      video_models: { "veo-3": null },
    });
    expect(served.map((problem) => [problem.pointer, problem.code])).toEqual([
      ["/video_models/veo-3", "unserved_modality"],
    ]);
  });
});

import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import { describe, expect, it } from "vitest";
import { exampleProfile } from "../__fixtures__/example-profile.js";
import { profileJsonSchema } from "./profile-schema.js";
import { profileAjvOptions } from "./validate-profile.js";

// The build writes the profile schema's validator as standalone code
// (scripts/generate-profile-validator.mjs) so that a run never compiles the schema; the
// built module loads it from dist/. It must judge every profile as the schema compiled now.
const built = fileURLToPath(new URL("../../dist/profile/profile-validator.cjs", import.meta.url));

const profiles: unknown[] = [
  exampleProfile(),
  {},
  { video_models: { x: { seconds: null, price: null } } },
  { service: { base_url: "https://x.test", dialekt: "openai" }, extra: true },
  { video_models: { v: { seconds: [1], bogus: 1, sizes: { width: { min: "a" } } } } },
  { service: { dialect: "grpc" }, image_models: { i: { sizes: 3 } } },
  { speech_models: { s: { voices: "alloy", price: { per_1000_characters: -1 } } } },
  { providers: { p: { dialect: "openai", base_url: 4 } }, chat_models: { c: { provider: 1 } } },
];

describe("the built profile validator", () => {
  it("is in dist/ after a build and finds what the schema compiled now finds", () => {
    expect(existsSync(built)).toBe(true);
    const standalone = createRequire(import.meta.url)(built) as ValidateFunction;
    const compiled = new Ajv(profileAjvOptions).compile(profileJsonSchema);
    const judged = (validate: ValidateFunction, profile: unknown) => {
      const valid = validate(profile);
      return {
        valid,
        errors: (validate.errors ?? []).map((error) => ({
          keyword: error.keyword,
          instancePath: error.instancePath,
          schemaPath: error.schemaPath,
          params: error.params,
          message: error.message,
          data: error.data,
          parentSchema: error.parentSchema,
        })),
      };
    };
    let invalid = 0;
    for (const profile of profiles) {
      const expected = judged(compiled, profile);
      if (!expected.valid) invalid += 1;
      expect(judged(standalone, profile)).toEqual(expected);
    }
    expect(invalid).toBeGreaterThanOrEqual(5);
  });
});

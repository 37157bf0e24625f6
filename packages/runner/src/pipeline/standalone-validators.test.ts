import { existsSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { jsonSchemaProblem } from "./standalone-validators.js";
import { validatePipeline } from "./validate-pipeline.js";

// The build writes ajv standalone validators beside dist/pipeline/validate-pipeline.js; these
// tests run from src/ (where schemas are compiled at run time) and compare the two.
const built = new URL("../../dist/pipeline/", import.meta.url);
const fixtures = new URL("./__fixtures__/", import.meta.url);
const corpus = ["invalid", "valid"].flatMap((folder) =>
  readdirSync(new URL(folder, fixtures))
    .filter((name) => /\.(yaml|txt|bin)$/.test(name))
    .map((name) => new URL(`${folder}/${name}`, fixtures).pathname),
);

describe("build-time validators", () => {
  it("are written by the build", () => {
    expect(existsSync(new URL("standalone-validators.cjs", built))).toBe(true);
  });

  it("give the same diagnostics as schemas compiled at run time, for the whole corpus", async () => {
    const dist = (await import(new URL("validate-pipeline.js", built).href)) as {
      validatePipeline: typeof validatePipeline;
    };
    expect(corpus.length).toBeGreaterThan(30);
    for (const file of corpus) {
      const fromSource = await validatePipeline(file);
      const fromBuild = await dist.validatePipeline(file);
      expect(fromBuild.diagnostics, file).toEqual(fromSource.diagnostics);
    }
  });

  it("name the first problem of an invalid JSON Schema in ajv's words", () => {
    expect(jsonSchemaProblem({ type: "object", properties: { a: { type: "strin" } } })).toMatch(
      /^data\/properties\/a\/type must be/,
    );
    expect(jsonSchemaProblem({ type: "object", required: ["a"] })).toBeUndefined();
    expect(jsonSchemaProblem({ $ref: "#/definitions/missing" })).toMatch(/can't resolve/);
  });
});

import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { codeCacheFor, jsonSchemaProblem, wrapCommonJS } from "./standalone-validators.js";
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

  it("come with V8's code cache of the same build, which V8 takes; another build's is not used", () => {
    const file = fileURLToPath(new URL("standalone-validators.cjs", built));
    const source = readFileSync(file, "utf8");
    const cache = codeCacheFor(file, source);
    expect(cache?.length).toBeGreaterThan(100_000);
    const script = new Script(wrapCommonJS(source), { filename: file, cachedData: cache });
    expect(script.cachedDataRejected).toBe(false);

    // The same cache beside a module of another build (its first line's id differs): unused.
    const dir = mkdtempSync(join(tmpdir(), "reelsmith-v8cache-"));
    const other = join(dir, "standalone-validators.cjs");
    const changed = source.replace(
      /build ([0-9a-f]+)/,
      (_, id: string) => `build ${id.replace(/^./, (c) => (c === "0" ? "1" : "0"))}`,
    );
    expect(changed).not.toBe(source);
    writeFileSync(other, changed);
    copyFileSync(file.replace(/\.cjs$/, ".v8cache"), join(dir, "standalone-validators.v8cache"));
    expect(codeCacheFor(other, changed)).toBeUndefined();
    // No cache file at all: compiled as usual.
    expect(
      codeCacheFor(join(tmpdir(), "absent", "standalone-validators.cjs"), source),
    ).toBeUndefined();
  });

  it("name the first problem of an invalid JSON Schema in ajv's words", () => {
    expect(jsonSchemaProblem({ type: "object", properties: { a: { type: "strin" } } })).toMatch(
      /^data\/properties\/a\/type must be/,
    );
    expect(jsonSchemaProblem({ type: "object", required: ["a"] })).toBeUndefined();
    expect(jsonSchemaProblem({ $ref: "#/definitions/missing" })).toMatch(/can't resolve/);
  });
});

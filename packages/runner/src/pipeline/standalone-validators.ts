import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import type { Ajv, ErrorObject, Options } from "ajv";

/** A validator as ajv makes them: returns validity and leaves the problems on `errors`. */
export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

interface Generated {
  pipeline: SchemaValidator;
  meta: SchemaValidator;
}

const require = createRequire(import.meta.url);
let generated: Generated | null | undefined;

/**
 * The validators written at build time by scripts/generate-validators.mjs (ajv standalone
 * code beside this module in dist/), or null where they are absent (running from src/).
 */
export function generatedValidators(): Generated | null {
  if (generated === undefined) {
    try {
      generated = loadGenerated(
        fileURLToPath(new URL("./standalone-validators.cjs", import.meta.url)),
      );
    } catch {
      generated = null;
    }
  }
  return generated;
}

/**
 * Loads the generated CommonJS module as `require` would, with V8's code cache that the build
 * wrote beside it (`.v8cache`, made after validating the examples, so the functions a
 * validation runs come compiled): about 600 KB of code need not be compiled at each start.
 * The cache is used only when it was made from this very file (the build id on the file's
 * first line heads the cache) and V8 accepts it (same version and flags); else the code is
 * compiled as usual.
 */
function loadGenerated(file: string): Generated {
  const source = readFileSync(file, "utf8");
  const script = new Script(wrapCommonJS(source), {
    filename: file,
    cachedData: codeCacheFor(file, source),
  });
  const module = { exports: {} as Generated };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/** The CommonJS wrapper of `source`: a function of (exports, require, module, __filename, __dirname). */
export function wrapCommonJS(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

/** The build id of generated code: its first line's `build <id>`, or undefined. */
export function buildIdOf(source: string): string | undefined {
  return /^\/\/ .*build ([0-9a-f]+)/.exec(source.slice(0, source.indexOf("\n")))?.[1];
}

/** The code cache of `file` when it was made from `source` (its header is the build id). */
export function codeCacheFor(file: string, source: string): Buffer | undefined {
  const id = buildIdOf(source);
  if (id === undefined) return undefined;
  let cache: Buffer;
  try {
    cache = readFileSync(file.replace(/\.cjs$/, ".v8cache"));
  } catch {
    return undefined;
  }
  const header = Buffer.from(`${id}\n`);
  return cache.subarray(0, header.length).equals(header)
    ? cache.subarray(header.length)
    : undefined;
}

/** A new ajv instance, loaded only when a schema must be compiled at run time. */
export function createAjv(options: Options): Ajv {
  const { Ajv: AjvClass } = require("ajv") as typeof import("ajv");
  return new AjvClass(options);
}

/**
 * Why `schema` is not a valid JSON Schema (draft-07) in ajv's words, e.g.
 * `data/type must be equal to one of the allowed values`, or undefined when it is valid.
 * The meta-schema check runs on the build-time validator; only a schema with `$ref`
 * (whose targets must resolve) is compiled.
 */
export function jsonSchemaProblem(schema: unknown): string | undefined {
  const meta = generatedValidators()?.meta;
  if (meta && !meta(schema)) {
    const first = meta.errors?.[0];
    return first ? `data${first.instancePath} ${first.message}` : "invalid";
  }
  if (meta && !JSON.stringify(schema).includes('"$ref"')) return undefined;
  try {
    createAjv({ strict: false, logger: false }).compile(schema as object);
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^schema is invalid: /, "").split(", ")[0];
  }
}

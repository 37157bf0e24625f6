import { createRequire } from "node:module";
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
      generated = require("./standalone-validators.cjs") as Generated;
    } catch {
      generated = null;
    }
  }
  return generated;
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

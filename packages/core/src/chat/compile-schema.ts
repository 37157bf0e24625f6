import type { Ajv, ValidateFunction } from "ajv";
import { InvalidRequestError } from "../errors/invalid-request-error.js";
import type { JSONSchema } from "./types.js";

const compiled = new WeakMap<Ajv, Map<string, ValidateFunction>>();

/**
 * Compiles a JSON Schema once per distinct content (equal schemas built anew on every call
 * reuse one validator, and a repeated `$id` does not clash). An invalid schema throws
 * `InvalidRequestError` naming `field`, before anything is sent.
 */
export function compileSchema(ajv: Ajv, schema: JSONSchema, field: string): ValidateFunction {
  let cache = compiled.get(ajv);
  if (!cache) {
    cache = new Map();
    compiled.set(ajv, cache);
  }
  let key: string;
  try {
    key = JSON.stringify(schema);
  } catch {
    throw new InvalidRequestError(field, `${field}: the JSON Schema cannot be serialised.`);
  }
  const known = cache.get(key);
  if (known) return known;
  const id = typeof schema.$id === "string" ? schema.$id : undefined;
  let validate: ValidateFunction | undefined;
  try {
    validate = (id ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema);
  } catch (error) {
    throw new InvalidRequestError(
      field,
      `${field}: invalid JSON Schema (${(error as Error).message}).`,
    );
  }
  cache.set(key, validate);
  return validate;
}

import { statSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { defineKey } from "../expressions/convert.js";
import { InputError, type InputProblem } from "./errors/input-error.js";
import type { LoadedPipeline } from "./load-pipeline.js";
import type { InputSpec } from "./pipeline-spec.js";
import { closest } from "./schema-errors.js";

const TRUE_WORDS = new Set(["true", "yes", "on", "1"]);
const FALSE_WORDS = new Set(["false", "no", "off", "0"]);

type Coerced = { value: unknown } | { problem: string };

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** Turn a given value (a CLI string or a typed value) into the declared type. */
function coerce(type: InputSpec["type"], value: unknown, baseDir: string): Coerced {
  const text = typeof value === "string" ? value.trim() : undefined;
  switch (type) {
    case "string":
      return typeof value === "string"
        ? { value }
        : typeof value === "number" || typeof value === "boolean"
          ? { value: String(value) }
          : { problem: `expected a string, got ${describe(value)}` };
    case "integer": {
      const number = text !== undefined && /^[+-]?\d+$/.test(text) ? Number(text) : value;
      return Number.isSafeInteger(number)
        ? { value: number }
        : { problem: `expected an integer, got ${describe(value)}` };
    }
    case "number": {
      const number = text !== undefined && text !== "" ? Number(text) : value;
      return typeof number === "number" && Number.isFinite(number)
        ? { value: number }
        : { problem: `expected a number, got ${describe(value)}` };
    }
    case "boolean": {
      if (typeof value === "boolean") return { value };
      const word = text?.toLowerCase();
      if (word !== undefined && TRUE_WORDS.has(word)) return { value: true };
      if (word !== undefined && FALSE_WORDS.has(word)) return { value: false };
      return { problem: `expected true or false, got ${describe(value)}` };
    }
    case "array":
    case "object": {
      let parsed = value;
      if (text !== undefined) {
        try {
          parsed = JSON.parse(text);
        } catch {
          return {
            problem: `expected ${type === "array" ? "a JSON array" : "a JSON object"}, got ${describe(value)}`,
          };
        }
      }
      const ok =
        type === "array"
          ? Array.isArray(parsed)
          : parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
      return ok
        ? { value: parsed }
        : {
            problem: `expected ${type === "array" ? "an array" : "an object"}, got ${describe(parsed)}`,
          };
    }
    case "file": {
      if (typeof value !== "string" || value.trim() === "")
        return { problem: `expected a file path, got ${describe(value)}` };
      const path = isAbsolute(value) ? value : resolve(baseDir, value);
      try {
        if (!statSync(path).isFile()) return { problem: `${path} is not a file` };
      } catch {
        return {
          problem: `file not found: ${path}${
            isAbsolute(value)
              ? ""
              : ` (a \`file\` input is read relative to the pipeline's folder, ${baseDir}; give an absolute path to name a file elsewhere)`
          }`,
        };
      }
      return { value: path };
    }
    default:
      return { problem: `unknown input type ${String(type)}` };
  }
}

/**
 * A number outside its input's declared `minimum`/`maximum` is a problem, refused before
 * anything is sent (`scenes=0` would otherwise pay a storyboard and fail at the join).
 */
function outOfRange(declaration: InputSpec, coerced: Coerced): Coerced {
  if (!("value" in coerced) || typeof coerced.value !== "number") return coerced;
  const { minimum, maximum } = declaration;
  const value = coerced.value;
  const range =
    minimum !== undefined && maximum !== undefined
      ? `from ${minimum} to ${maximum}`
      : minimum !== undefined
        ? `of at least ${minimum}`
        : `of at most ${maximum}`;
  if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum))
    return {
      problem: `expected ${declaration.type === "integer" ? "an integer" : "a number"} ${range}, got ${value}`,
    };
  return coerced;
}

/**
 * The input values a run sees: given values coerced to their declared types (CLI strings
 * like "3" become integers, JSON text becomes arrays/objects), defaults for the rest, `file`
 * inputs resolved relative to the pipeline file and checked to exist. Throws InputError
 * listing every problem (unknown names, missing required inputs, wrong types).
 *
 * @example
 * ```ts
 * resolveInputs(pipeline, { scenes: "4", tags: '["a","b"]' }); // { story: "…", scenes: 4, tags: ["a", "b"] }
 * ```
 */
export function resolveInputs(
  pipeline: LoadedPipeline,
  given: Record<string, unknown> = {},
): Record<string, unknown> {
  const declared = (pipeline.spec.inputs ?? {}) as Record<string, InputSpec>;
  const names = Object.keys(declared);
  const baseDir = pipeline.path === "<inline>" ? process.cwd() : dirname(pipeline.path);
  const problems: InputProblem[] = [];
  const result: Record<string, unknown> = {};
  for (const name of Object.keys(given)) {
    if (Object.hasOwn(declared, name)) continue;
    const suggestion = closest(name, names);
    problems.push({
      input: name,
      message: `not declared by the pipeline${suggestion ? ` (did you mean \`${suggestion}\`?)` : names.length ? ` (inputs: ${names.join(", ")})` : " (it declares no inputs)"}`,
    });
  }
  for (const name of names) {
    const declaration = declared[name] as InputSpec;
    const provided = Object.hasOwn(given, name) && given[name] !== undefined;
    const value = provided ? given[name] : declaration.default;
    if (value === undefined || value === null) {
      const required = declaration.required ?? declaration.default === undefined;
      if (required)
        problems.push({
          input: name,
          message: `required (${declaration.type}${declaration.description ? `: ${declaration.description}` : ""})`,
        });
      continue;
    }
    const coerced = outOfRange(declaration, coerce(declaration.type, value, baseDir));
    if ("problem" in coerced)
      problems.push({
        input: name,
        message: provided ? coerced.problem : `default: ${coerced.problem}`,
      });
    else defineKey(result, name, coerced.value);
  }
  if (problems.length > 0) throw new InputError(problems);
  return result;
}

import { checkImageInput } from "../images/image-input.js";
import type { ParamSpec, VideoCreateParams, VideoModelCatalog, VideoModelSpec } from "./types.js";
import {
  describeSeconds,
  describeSizes,
  longestSeconds,
  orList,
  secondsAllowed,
  sizeAllowed,
} from "./video-model-spec.js";

/** One thing wrong with a video request. */
export interface VideoRequestProblem {
  /** The offending field: `model`, `prompt`, `seconds`, `size`, `image`, `params.<name>`. */
  field: string;
  /** What is wrong, what is allowed, and which model of the catalog would accept it. */
  message: string;
  /** The allowed values in words, when the model's spec says. */
  allowed?: string;
  /** The nearest model of the catalog that accepts the whole request, if any. */
  suggestion?: string;
}

/** Fields of the request itself in either dialect; a provider param may not take their names. */
const reservedNames = new Set([
  "model",
  "prompt",
  "seconds",
  "size",
  "image_url",
  "input_reference",
]);

type Dimension = "seconds" | "size" | "image" | `params.${string}`;

/**
 * Every problem of a video request, checked against a catalog when one is given: model known,
 * `seconds` (range or list), `size` (list or range), reference image allowed, and each
 * provider parameter (declared, right type, allowed value, in range). Each problem names the
 * field, the allowed values, and the nearest model that would accept the request. Without a
 * catalog (or an empty one) only the shapes are checked.
 *
 * @example
 * ```ts
 * findVideoRequestProblems({ model: "veo-3-fast", prompt: "a fox", seconds: 12 }, catalog);
 * // [{ field: "seconds", message: "`seconds: 12` is over veo-3-fast's 8; veo-3-long allows 1 to 20 seconds", … }]
 * ```
 */
export function findVideoRequestProblems(
  params: VideoCreateParams,
  catalog?: VideoModelCatalog | null,
): VideoRequestProblem[] {
  if (params === null || typeof params !== "object") {
    return [{ field: "params", message: "Expected the video request to be an object." }];
  }
  const problems: VideoRequestProblem[] = [];
  const seconds = shapeProblems(params, problems);
  if (!catalog || catalog.length === 0 || typeof params.model !== "string") return problems;
  const spec = catalog.find((model) => model.id === params.model);
  if (!spec) {
    const near = nearestIds(
      params.model,
      catalog.map((model) => model.id),
    );
    problems.push({
      field: "model",
      message: `unknown video model \`${params.model}\`${near ? ` (did you mean ${near}?)` : ""}; known models: ${catalog.map((model) => model.id).join(", ")}`,
      allowed: catalog.map((model) => model.id).join(", "),
    });
    return problems;
  }
  for (const problem of specProblems(params, seconds, spec)) {
    const alternative = nearestAccepting(params, seconds, spec, catalog, problem.dimension);
    const { dimension: _dimension, ...rest } = problem;
    if (!alternative) {
      problems.push(rest);
      continue;
    }
    problems.push({
      ...rest,
      message: `${rest.message}; ${alternative.id} ${offers(alternative, problem.dimension)}`,
      suggestion: alternative.id,
    });
  }
  return problems;
}

/** Checks the shapes of every field; returns `seconds` as a number when it is one. */
function shapeProblems(params: VideoCreateParams, problems: VideoRequestProblem[]) {
  if (typeof params.model !== "string" || params.model.trim() === "") {
    problems.push({ field: "model", message: "Expected `model` to be a non-empty string." });
  }
  if (typeof params.prompt !== "string" || params.prompt.trim() === "") {
    problems.push({ field: "prompt", message: "Expected `prompt` to be a non-empty string." });
  }
  let seconds: number | undefined;
  if (params.seconds !== undefined) {
    const text = String(params.seconds).trim();
    seconds = /^\d+$/.test(text) ? Number(text) : undefined;
    if (seconds === undefined || seconds < 1) {
      problems.push({
        field: "seconds",
        message: `Expected \`seconds\` to be a whole number of seconds >= 1, got ${JSON.stringify(params.seconds)}.`,
      });
      seconds = undefined;
    }
  }
  if (
    params.size !== undefined &&
    (typeof params.size !== "string" || !/^\d+x\d+$/.test(params.size))
  ) {
    problems.push({
      field: "size",
      message: `Expected \`size\` to be "<width>x<height>", got ${JSON.stringify(params.size)}.`,
    });
  }
  if (params.image !== undefined) {
    const problem = checkImageInput(params.image);
    if (problem) problems.push({ field: "image", message: `\`image\`: ${problem}` });
    if (params.image_url !== undefined) {
      problems.push({ field: "image", message: "Give either `image` or `image_url`, not both." });
    }
  }
  if (
    params.image_url !== undefined &&
    (typeof params.image_url !== "string" || !/^(https?:|data:)/i.test(params.image_url))
  ) {
    problems.push({
      field: "image_url",
      message: "Expected `image_url` to be an http(s) URL or a data: URI.",
    });
  }
  if (params.params !== undefined) {
    if (
      params.params === null ||
      typeof params.params !== "object" ||
      Array.isArray(params.params)
    ) {
      problems.push({
        field: "params",
        message: "Expected `params` to be an object of provider parameters.",
      });
    } else {
      for (const [name, value] of Object.entries(params.params)) {
        if (reservedNames.has(name)) {
          problems.push({
            field: `params.${name}`,
            message: `\`params.${name}\` is one of the request's own fields; set it at the top level of the request, not in \`params\`.`,
          });
          continue;
        }
        const scalar =
          typeof value === "string" || typeof value === "number" || typeof value === "boolean";
        if (!scalar && checkImageInput(value) !== undefined) {
          problems.push({
            field: `params.${name}`,
            message: `Expected \`params.${name}\` to be a string, number, boolean or image, got ${describe(value)}.`,
          });
        }
      }
    }
  }
  return seconds;
}

type SpecProblem = VideoRequestProblem & { dimension: Dimension };

function specProblems(
  params: VideoCreateParams,
  seconds: number | undefined,
  spec: VideoModelSpec,
): SpecProblem[] {
  const problems: SpecProblem[] = [];
  if (seconds !== undefined && spec.seconds && !secondsAllowed(spec.seconds, seconds)) {
    const range = spec.seconds;
    const message = Array.isArray(range)
      ? `\`seconds: ${seconds}\` is not one of ${spec.id}'s ${describeSeconds(range)}`
      : seconds > longestSeconds(range)
        ? `\`seconds: ${seconds}\` is over ${spec.id}'s ${longestSeconds(range)}`
        : `\`seconds: ${seconds}\` is under ${spec.id}'s minimum of ${(range as { min: number }).min}`;
    problems.push({
      field: "seconds",
      dimension: "seconds",
      message,
      allowed: describeSeconds(range),
    });
  }
  if (typeof params.size === "string" && spec.sizes && !sizeAllowed(spec.sizes, params.size)) {
    problems.push({
      field: "size",
      dimension: "size",
      message: `\`size: ${params.size}\` is not offered by ${spec.id} (${describeSizes(spec.sizes)})`,
      allowed: describeSizes(spec.sizes),
    });
  }
  const hasImage = params.image !== undefined || params.image_url !== undefined;
  if (hasImage && spec.image === false) {
    problems.push({
      field: params.image !== undefined ? "image" : "image_url",
      dimension: "image",
      message: `${spec.id} does not take a reference image`,
    });
  }
  if (params.params && typeof params.params === "object" && spec.params) {
    const declared = Object.keys(spec.params);
    for (const [name, value] of Object.entries(params.params)) {
      const paramSpec = spec.params[name];
      const field = `params.${name}`;
      if (!paramSpec) {
        problems.push({
          field,
          dimension: `params.${name}`,
          message: `\`${field}\` is not a parameter of ${spec.id} (it takes ${declared.length > 0 ? declared.join(", ") : "none"})`,
          allowed: declared.join(", "),
        });
        continue;
      }
      const problem = paramProblem(name, value, paramSpec, spec.id);
      if (problem) problems.push({ field, dimension: `params.${name}`, ...problem });
    }
  }
  return problems;
}

/** What is wrong with one provider parameter value, or undefined. */
export function paramProblem(
  name: string,
  value: unknown,
  spec: ParamSpec,
  model: string,
): { message: string; allowed?: string } | undefined {
  const field = `params.${name}`;
  const typeOk =
    spec.type === "integer"
      ? typeof value === "number" && Number.isInteger(value)
      : spec.type === "number"
        ? typeof value === "number" && Number.isFinite(value)
        : spec.type === "string"
          ? typeof value === "string"
          : spec.type === "boolean"
            ? typeof value === "boolean"
            : checkImageInput(value) === undefined;
  if (!typeOk) {
    const article = spec.type === "integer" || spec.type === "image" ? "an" : "a";
    return {
      message: `\`${field}\` must be ${article} ${spec.type} for ${model}; got ${describe(value)}`,
      allowed: spec.type,
    };
  }
  if (spec.enum && !spec.enum.includes(value as string | number)) {
    const allowed = spec.enum.map((item) => String(item)).join(", ");
    return {
      message: `\`${field}: ${JSON.stringify(value)}\` is not allowed by ${model} (allowed: ${allowed})`,
      allowed,
    };
  }
  if (typeof value === "number") {
    if (spec.maximum !== undefined && value > spec.maximum) {
      return {
        message: `\`${field}: ${value}\` is over ${model}'s maximum of ${spec.maximum}`,
        allowed: rangeText(spec),
      };
    }
    if (spec.minimum !== undefined && value < spec.minimum) {
      return {
        message: `\`${field}: ${value}\` is under ${model}'s minimum of ${spec.minimum}`,
        allowed: rangeText(spec),
      };
    }
  }
  return undefined;
}

function rangeText(spec: ParamSpec): string {
  return `${spec.minimum ?? "-∞"} to ${spec.maximum ?? "∞"}`;
}

/** The model nearest by id (of those whose spec knows `dimension`) that accepts the whole request. */
function nearestAccepting(
  params: VideoCreateParams,
  seconds: number | undefined,
  failed: VideoModelSpec,
  catalog: VideoModelCatalog,
  dimension: Dimension,
): VideoModelSpec | undefined {
  const candidates = catalog.filter(
    (model) =>
      model.id !== failed.id &&
      knows(model, dimension) &&
      specProblems({ ...params, model: model.id }, seconds, model).length === 0,
  );
  candidates.sort((a, b) => distance(failed.id, a.id) - distance(failed.id, b.id));
  return candidates[0];
}

function knows(model: VideoModelSpec, dimension: Dimension): boolean {
  if (dimension === "seconds") return model.seconds !== undefined;
  if (dimension === "size") return model.sizes !== undefined;
  if (dimension === "image") return model.image === true;
  return model.params !== undefined;
}

function offers(model: VideoModelSpec, dimension: Dimension): string {
  if (dimension === "seconds" && model.seconds) return `allows ${describeSeconds(model.seconds)}`;
  if (dimension === "size" && model.sizes) return `offers ${describeSizes(model.sizes)}`;
  if (dimension === "image") return "takes a reference image";
  return `accepts \`${dimension}\``;
}

/** Ids close to `id` (edit distance at most a third of its length), for "did you mean". */
function nearestIds(id: string, ids: readonly string[]): string | undefined {
  const close = ids
    .map((candidate) => ({ candidate, cost: distance(id, candidate) }))
    .filter(({ cost }) => cost <= Math.max(2, Math.floor(id.length / 3)))
    .sort((a, b) => a.cost - b.cost)
    .map(({ candidate }) => candidate);
  return close.length > 0 ? orList(close.slice(0, 3)) : undefined;
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function describe(value: unknown): string {
  if (value instanceof Uint8Array) return `${value.byteLength} bytes`;
  if (typeof value === "object" && value !== null)
    return Array.isArray(value) ? "a list" : "an object";
  return JSON.stringify(value) ?? String(value);
}

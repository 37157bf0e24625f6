import { createRequire } from "node:module";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { closest, distance } from "fastest-levenshtein";
import { baseURLProblem } from "../client/base-url.js";
import { modalities, modalitySection } from "../models/modalities.js";
import { type ProviderEntry, providerNames, providers } from "../providers/registry.js";
import { orList } from "../videos/video-model-spec.js";
import { modelDialect } from "./model-dialect.js";
import { profileJsonSchema } from "./profile-schema.js";
import type { ProviderProfile } from "./profile-types.js";
import {
  escapePointer,
  findSecretKeys,
  findSecretValues,
  looksLikeSecretValue,
  maskSecretValues,
} from "./secret-keys.js";

/** One problem of a profile: where (a JSON pointer to the offending value) and what. */
export interface ProfileProblem {
  /** JSON pointer, e.g. `/video_models/veo-3-fast/seconds/max` (`""` for the whole document). */
  pointer: string;
  message: string;
  /**
   * `secret`, `unknown_key`, `invalid_value`, `inconsistent`, `unknown_provider`, or
   * `unserved_modality` (a model routed to an account whose dialect does not make its kind).
   */
  code:
    | "secret"
    | "unknown_key"
    | "invalid_value"
    | "inconsistent"
    | "unknown_provider"
    | "unserved_modality";
}

/** How the profile schema is compiled (here, or at build time into `profile-validator.cjs`). */
export const profileAjvOptions = { allErrors: true, verbose: true, strict: false } as const;

let compiled: ValidateFunction | undefined;

/**
 * The profile schema's validator: the standalone code the build wrote beside this module
 * (scripts/generate-profile-validator.mjs), else compiled now (running from src/). Compiling
 * it costs a run 100–200 ms of CPU before its first request (the service's model list is read
 * as profile entries), loading the built one a few.
 */
function validator(): ValidateFunction {
  if (compiled) return compiled;
  try {
    compiled = createRequire(import.meta.url)("./profile-validator.cjs") as ValidateFunction;
  } catch {
    compiled = new Ajv(profileAjvOptions).compile(profileJsonSchema);
  }
  return compiled;
}

/**
 * Checks a parsed profile against its schema and returns every problem (never throws), each
 * with a JSON pointer to the offending value: unknown keys (naming the allowed ones), values of
 * the wrong type or out of range, an unknown dialect, ranges whose `min` is over their `max`,
 * and any key that looks like a secret (`api_key`, `token`, `password`, …), which must live
 * in an environment variable named in `service.api_key_env`.
 *
 * @example
 * ```ts
 * validateProfile({ service: { dialect: "grpc", api_key: "sk-…" } });
 * // [{ pointer: "/service/api_key", code: "secret", … }, { pointer: "/service/dialect", code: "invalid_value", … }]
 * ```
 */
export function validateProfile(value: unknown): ProfileProblem[] {
  const secretKeys = findSecretKeys(value);
  const secretValues = findSecretValues(value);
  const secrets = [...secretKeys, ...secretValues];
  const problems: ProfileProblem[] = [
    ...secretKeys.map((pointer) => ({
      pointer,
      code: "secret" as const,
      message: `\`${lastSegment(pointer)}\` looks like a secret: never put a key in a profile. Put it in an environment variable and name that variable in \`service.api_key_env\` (e.g. api_key_env: [EXAMPLE_API_KEY]).`,
    })),
    ...secretValues.map((pointer) => ({
      pointer,
      code: "secret" as const,
      message: `${where(pointer)} holds a value that looks like a key (not shown): never put a key in a profile. Put it in an environment variable and name that variable in \`service.api_key_env\` (e.g. api_key_env: [EXAMPLE_API_KEY]).`,
    })),
  ];
  const validate = validator();
  if (!validate(value)) {
    const errors = (validate.errors ?? []).filter((error) => {
      const pointer = errorPointer(error);
      return !secrets.some((secret) => pointer === secret || pointer.startsWith(`${secret}/`));
    });
    problems.push(...describeErrors(errors));
  }
  problems.push(...baseURLProblems(value), ...nonFiniteProblems(value));
  if (problems.length === 0)
    problems.push(...consistencyProblems(value), ...providerProblems(value));
  if (problems.length === 0) problems.push(...unservedProblems(value as ProviderProfile));
  // No message ever quotes a value that looks like a key, wherever it was written.
  return dedupe(problems).map((problem) => ({
    ...problem,
    message: maskSecretValues(problem.message),
  }));
}

/** The pointer of the value an error is about (an unknown key's own pointer for additionalProperties). */
function errorPointer(error: ErrorObject): string {
  if (error.keyword === "additionalProperties") {
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    return `${error.instancePath}/${escapePointer(key)}`;
  }
  return error.instancePath;
}

/** Turns ajv's errors into problems; an anyOf's branch errors are reduced to the branch meant. */
function describeErrors(errors: ErrorObject[]): ProfileProblem[] {
  const unions = errors.filter((error) => error.keyword === "anyOf");
  const inside = (error: ErrorObject, union: ErrorObject) =>
    error !== union && error.schemaPath.startsWith(`${union.schemaPath}/`);
  const problems: ProfileProblem[] = [];
  for (const error of errors) {
    if (unions.some((union) => inside(error, union))) continue;
    if (error.keyword !== "anyOf") {
      problems.push(describeError(error));
      continue;
    }
    const branchErrors = errors.filter((candidate) => inside(candidate, error));
    // The branches whose own type matched the value: the user meant one of those.
    const branches = new Map<string, ErrorObject[]>();
    for (const candidate of branchErrors) {
      const branch = candidate.schemaPath.slice(error.schemaPath.length + 1).split("/")[0] ?? "";
      branches.set(branch, [...(branches.get(branch) ?? []), candidate]);
    }
    const meant = [...branches.values()].filter(
      (list) =>
        !list.some(
          (candidate) =>
            candidate.instancePath === error.instancePath &&
            (candidate.keyword === "type" || candidate.keyword === "enum"),
        ),
    );
    const first = meant[0];
    if (meant.length === 1 && first) {
      problems.push(...describeErrors(first));
    } else {
      const description = (error.parentSchema as { description?: string } | undefined)?.description;
      problems.push({
        pointer: error.instancePath,
        code: "invalid_value",
        message: `${where(error.instancePath)}: got ${shown(error.data)}; expected ${description ?? "another value"}`,
      });
    }
  }
  return problems;
}

function describeError(error: ErrorObject): ProfileProblem {
  const pointer = errorPointer(error);
  if (error.keyword === "additionalProperties") {
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    const allowed = Object.keys(
      (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ??
        {},
    ).filter((name) => name !== "$schema");
    return {
      pointer,
      code: "unknown_key",
      message: `unknown key \`${looksLikeSecretValue(key) ? "<redacted>" : key}\` in ${error.instancePath === "" ? "the profile" : where(error.instancePath)}; allowed: ${allowed.join(", ")}`,
    };
  }
  if (error.keyword === "enum") {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map(String);
    const meant = typeof error.data === "string" ? meantValue(error.data, allowed) : undefined;
    return {
      pointer,
      code: "invalid_value",
      message: `${where(pointer)}: ${shown(error.data)} is not allowed${meant ? `; did you mean \`${meant}\`? Use` : "; use"} ${orList(allowed)}`,
    };
  }
  if (error.keyword === "required") {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return {
      pointer,
      code: "invalid_value",
      message: `${where(pointer)}: \`${missing}\` is missing`,
    };
  }
  return {
    pointer,
    code: "invalid_value",
    message: `${where(pointer)}: got ${shown(error.data)}; ${error.message ?? "invalid"}`,
  };
}

/**
 * The allowed value a misspelt one was meant to be (`refrence` → `reference`): the closest,
 * when it is within a third of the word's letters.
 * @example meantValue("refrence", ["openai", "reference"]) // "reference"
 */
function meantValue(given: string, allowed: readonly string[]): string | undefined {
  if (allowed.length === 0) return undefined;
  const lower = given.toLowerCase();
  const meant = closest(
    lower,
    allowed.map((value) => value.toLowerCase()),
  );
  const at = allowed.findIndex((value) => value.toLowerCase() === meant);
  return distance(lower, meant) <= Math.max(1, Math.floor(given.length / 3))
    ? allowed[at]
    : undefined;
}

/** Numbers YAML can write but nothing can use: `.inf`, `-.inf`, `.nan`. */
function nonFiniteProblems(value: unknown, pointer = ""): ProfileProblem[] {
  if (typeof value === "number" && !Number.isFinite(value))
    return [
      {
        pointer,
        code: "invalid_value",
        message: `${where(pointer)}: got ${value}; expected a finite number`,
      },
    ];
  if (value === null || typeof value !== "object") return [];
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  return entries.flatMap(([key, child]) =>
    nonFiniteProblems(child, `${pointer}/${escapePointer(key)}`),
  );
}

/** `service.base_url` must be an http(s) URL with a host and no credentials. */
function baseURLProblems(value: unknown): ProfileProblem[] {
  const url = (value as { service?: { base_url?: unknown } } | null)?.service?.base_url;
  if (typeof url !== "string" || !/^https?:\/\//.test(url)) return [];
  const problem = baseURLProblem(url);
  if (!problem) return [];
  return [
    {
      pointer: "/service/base_url",
      code: problem.includes("credentials") ? "secret" : "invalid_value",
      message: problem.includes("credentials")
        ? "`service.base_url` holds credentials: never put a key in a profile. Give the URL without them and name the variable that holds the key in `service.api_key_env`."
        : `\`service.base_url\` ${problem.replace(/^the base URL /, "")}`,
    },
  ];
}

/** Checks no schema can: a range whose min is over its max. */
function consistencyProblems(value: unknown): ProfileProblem[] {
  const problems: ProfileProblem[] = [];
  const models = (value as { video_models?: Record<string, Record<string, unknown> | null> })
    .video_models;
  const checkRange = (range: unknown, pointer: string) => {
    const { min, max } = (range ?? {}) as { min?: unknown; max?: unknown };
    if (typeof min === "number" && typeof max === "number" && min > max) {
      problems.push({
        pointer: `${pointer}/min`,
        code: "inconsistent",
        message: `${where(pointer)}: min ${min} is over max ${max}`,
      });
    }
  };
  for (const [id, model] of Object.entries(models ?? {})) {
    if (!model) continue;
    const base = `/video_models/${escapePointer(id)}`;
    if (model.seconds && !Array.isArray(model.seconds))
      checkRange(model.seconds, `${base}/seconds`);
    const sizes = model.sizes as { width?: unknown; height?: unknown } | null | undefined;
    if (sizes && !Array.isArray(sizes)) {
      checkRange(sizes.width, `${base}/sizes/width`);
      checkRange(sizes.height, `${base}/sizes/height`);
    }
    for (const [name, param] of Object.entries((model.params ?? {}) as Record<string, unknown>)) {
      const { minimum, maximum } = (param ?? {}) as { minimum?: unknown; maximum?: unknown };
      if (typeof minimum === "number" && typeof maximum === "number" && minimum > maximum) {
        problems.push({
          pointer: `${base}/params/${escapePointer(name)}/minimum`,
          code: "inconsistent",
          message: `${where(`${base}/params/${escapePointer(name)}`)}: minimum ${minimum} is over maximum ${maximum}`,
        });
      }
    }
  }
  return problems;
}

/** The sections whose models may name a provider (every `*_models` map). */
function modelSections(value: unknown): [string, Record<string, unknown>][] {
  return Object.entries((value ?? {}) as Record<string, unknown>).filter(
    (entry): entry is [string, Record<string, unknown>] =>
      entry[0].endsWith("_models") && entry[1] !== null && typeof entry[1] === "object",
  );
}

/** A model's `provider:` must name an account under `providers:`. */
function providerProblems(value: unknown): ProfileProblem[] {
  const named = Object.keys(((value as { providers?: object }).providers ?? {}) as object);
  const problems: ProfileProblem[] = [];
  for (const [section, models] of modelSections(value)) {
    for (const [id, model] of Object.entries(models)) {
      const provider = (model as { provider?: unknown } | null)?.provider;
      if (typeof provider !== "string" || named.includes(provider)) continue;
      const pointer = `/${section}/${escapePointer(id)}/provider`;
      problems.push({
        pointer,
        code: "unknown_provider",
        message:
          named.length === 0
            ? `${where(pointer)}: no provider \`${provider}\`: the profile has no \`providers:\`; add \`providers: { ${provider}: { dialect: …, base_url: …, api_key_env: [...] } }\`, or remove \`provider:\` to use \`service\``
            : `${where(pointer)}: no provider \`${provider}\`; the profile's providers are ${orList(named)} (add it under \`providers:\`, or remove \`provider:\` to use \`service\`)`,
      });
    }
  }
  return problems;
}

/**
 * A model's account must speak its modality: an image model routed to a Kling account (video
 * only) would fail at its first request, so it is refused here, at the model's `provider:`
 * (or, for a model of `service`, at the model). Modalities no provider serves through the
 * registry (chat) are not checked.
 */
function unservedProblems(profile: ProviderProfile): ProfileProblem[] {
  const entries = providers as Record<string, ProviderEntry>;
  const problems: ProfileProblem[] = [];
  for (const modality of modalities) {
    const side = modality as keyof ProviderEntry;
    const serving = providerNames.filter((name) => entries[name]?.[side] !== undefined);
    if (serving.length === 0) continue;
    const section = modalitySection(modality);
    const models = (profile as Record<string, unknown>)[section] as
      | Record<string, { provider?: string } | null>
      | undefined;
    for (const [id, model] of Object.entries(models ?? {})) {
      const dialect = modelDialect(profile, model);
      if (serving.includes(dialect as (typeof serving)[number])) continue;
      const named = typeof model?.provider === "string" ? model.provider : undefined;
      const base = `/${section}/${escapePointer(id)}`;
      const pointer = named === undefined ? base : `${base}/provider`;
      const account = named === undefined ? "`service`" : `\`providers.${named}\``;
      const others = Object.entries(profile.providers ?? {})
        .filter(([, provider]) => serving.includes(provider.dialect as (typeof serving)[number]))
        .map(([name]) => name);
      const fix =
        others.length > 0
          ? `name one of the profile's accounts that does (${orList(others)}) in \`provider:\``
          : `add an account of one of those dialects under \`providers:\` and name it in \`provider:\``;
      const service = modelDialect(profile, null);
      const orService =
        named !== undefined && serving.includes(service as (typeof serving)[number])
          ? `, or remove \`provider:\` to use \`service\` (${service})`
          : "";
      problems.push({
        pointer,
        code: "unserved_modality",
        message: `${where(base)}: ${account} speaks ${dialect}, which makes no ${modality} (${modalitySection(modality)}); the dialects that do are ${orList(serving)}: ${fix}${orService}`,
      });
    }
  }
  return problems;
}

/** `/video_models/veo-3/seconds` → "video_models.veo-3.seconds". */
function where(pointer: string): string {
  if (pointer === "") return "the profile";
  return `\`${pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (looksLikeSecretValue(segment) ? "<redacted>" : segment))
    .join(".")}\``;
}

function lastSegment(pointer: string): string {
  const segment = (pointer.split("/").at(-1) ?? "").replace(/~1/g, "/").replace(/~0/g, "~");
  return looksLikeSecretValue(segment) ? "<redacted>" : segment;
}

function shown(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string" && looksLikeSecretValue(value))
    return "a value that looks like a key (not shown)";
  return JSON.stringify(value) ?? String(value);
}

function dedupe(problems: ProfileProblem[]): ProfileProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.pointer}\n${problem.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

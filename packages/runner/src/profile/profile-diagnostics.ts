import type { ProfileProblem } from "@reelsmith/core/profile";
import type { Diagnostic } from "../pipeline/diagnostic.js";
import type { SourceMap } from "../pipeline/source-map.js";

/** The path of a JSON pointer (`/video_models/veo~13/seconds` → `["video_models", "veo/3", "seconds"]`). */
export function pointerPath(pointer: string): (string | number)[] {
  if (pointer === "" || pointer === "/") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((part) => (/^(0|[1-9][0-9]*)$/.test(part) ? Number(part) : part));
}

const codes: Readonly<Record<ProfileProblem["code"], string>> = {
  secret: "PROFILE_SECRET",
  unknown_key: "PROFILE_UNKNOWN_KEY",
  invalid_value: "PROFILE_INVALID_VALUE",
  inconsistent: "PROFILE_INCONSISTENT",
  unknown_provider: "PROFILE_UNKNOWN_PROVIDER",
  unserved_modality: "PROFILE_UNSERVED_MODALITY",
};

function hintOf(problem: ProfileProblem): string | undefined {
  switch (problem.code) {
    case "secret":
      return "delete this line; reelsmith reads the key from the first variable of service.api_key_env that is set (in the environment or ./.env)";
    case "unknown_key":
      return "remove or rename it; the profile's schema (@reelsmith/core/profile.schema.json) lists every key";
    case "inconsistent":
      return "swap or correct the two bounds";
    case "unknown_provider":
      return "name an account of the profile's providers:, or add this one there with its dialect, base_url and api_key_env";
    case "unserved_modality":
      return "route the model to an account whose dialect makes it, or remove the model";
    default:
      return undefined;
  }
}

/**
 * core's profile problems as diagnostics at `file:line:column`: unknown keys and secrets point
 * at the key, other problems at the value; every quoted line has its secrets masked.
 *
 * @example
 * ```ts
 * profileDiagnostics(validateProfile(data), "reelsmith.config.yaml", sourceMap, lineText);
 * ```
 */
export function profileDiagnostics(
  problems: readonly ProfileProblem[],
  file: string,
  sourceMap: SourceMap,
  /** A line's text with its secrets masked (see createSecretMask). */
  lineText: (line: number) => string,
): Diagnostic[] {
  return problems.map((problem) => {
    // A model of `service` that its dialect cannot make is shown at the model's own line.
    const atKey =
      problem.code === "secret" ||
      problem.code === "unknown_key" ||
      (problem.code === "unserved_modality" && !problem.pointer.endsWith("/provider"));
    const { line, column } = sourceMap.position(pointerPath(problem.pointer), { key: atKey });
    const hint = hintOf(problem);
    return {
      severity: "error",
      code: codes[problem.code],
      message: problem.message,
      file,
      line,
      column,
      sourceLine: lineText(line),
      ...(hint ? { hint } : {}),
    };
  });
}

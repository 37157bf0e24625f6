import type { Diagnostic } from "../pipeline/diagnostic.js";
import type { LoadedProfile } from "./load-profile.js";

/** The fields of a video model whose absence a warning names: its limits and its price. */
const warnedFields = ["seconds", "sizes", "price"] as const;

function listed(words: readonly string[]): string {
  return words.length <= 1
    ? (words[0] ?? "")
    : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/**
 * One warning per video model of the profile whose limits (`seconds`, `sizes`) or `price`
 * are left unknown, at the model's line, saying what goes unchecked and what to fill in.
 *
 * @example
 * ```ts
 * for (const warning of profileWarnings(loaded)) console.warn(formatDiagnostic(warning));
 * // reelsmith.config.yaml:9:3: warning: veo-3-fast: seconds and price are unknown: …
 * ```
 */
export function profileWarnings(
  loaded: Pick<LoadedProfile, "unknowns" | "displayPath" | "positionOf" | "lineText">,
): Diagnostic[] {
  const byModel = new Map<string, (typeof loaded.unknowns)[number][]>();
  for (const unknown of loaded.unknowns) {
    if (unknown.section !== "video_models") continue;
    if (!(warnedFields as readonly string[]).includes(unknown.field)) continue;
    byModel.set(unknown.model, [...(byModel.get(unknown.model) ?? []), unknown]);
  }
  return [...byModel].map(([model, unknowns]) => {
    const { line, column } = loaded.positionOf(["video_models", model], { key: true });
    const fields = unknowns.map((unknown) => unknown.field);
    const consequences = unknowns.map((unknown) => unknown.consequence.replace(`${model}: `, ""));
    return {
      severity: "warning",
      code: "PROFILE_UNKNOWN_LIMITS",
      message: `video model \`${model}\`: ${listed(fields)} ${fields.length === 1 ? "is" : "are"} unknown (${consequences.join("; ")})`,
      file: loaded.displayPath,
      line,
      column,
      sourceLine: loaded.lineText(line),
      hint: `fill in ${listed(fields.map((field) => `\`${field}\``))} of ${model} in ${loaded.displayPath} from the provider's documentation`,
    };
  });
}

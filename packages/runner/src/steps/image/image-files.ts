import { ANY_PART } from "../define-step-kind.js";
import type { LocalFileUse } from "../step-kind.js";

/**
 * Where an image goes when the step names no `output`: `images/<step>-<index>.png` (core
 * numbers it `-1`, `-2`, … when the request makes several).
 * @example defaultImagePath("keyframes", 3) // "images/keyframes-3.png"
 */
export function defaultImagePath(stepId: string, index: number | string | undefined): string {
  return `images/${stepId}-${index ?? 0}.png`;
}

/**
 * Where each of `count` images goes: the step's `outputs` in order, else its `output` (or the
 * default path) numbered `-1`, `-2`, … before the extension when there are several.
 * @example imagePaths({ n: 2 }, "characters", undefined, 2) // ["images/characters-0-1.png", "images/characters-0-2.png"]
 */
export function imagePaths(
  spec: { output?: unknown; outputs?: unknown },
  stepId: string,
  index: number | undefined,
  count: number,
): string[] {
  const listed = Array.isArray(spec.outputs) ? spec.outputs.map(String) : [];
  const base =
    listed[0] ?? (typeof spec.output === "string" ? spec.output : defaultImagePath(stepId, index));
  return Array.from({ length: count }, (_, at) =>
    listed.length > 0 && at < listed.length ? (listed[at] as string) : numbered(base, at, count),
  );
}

/**
 * The paths a step's images may take, for its kind's `writes`: its `outputs`, and its
 * `output` (or the default path of any item) alone or numbered for any count.
 * @example writtenImagePaths({ output: "cast.png" }, "cast") // ["cast.png", "cast-${{ any }}.png"]
 */
export function writtenImagePaths(
  spec: { output?: unknown; outputs?: unknown },
  stepId: string,
): string[] {
  const listed = Array.isArray(spec.outputs) ? spec.outputs.map(String) : [];
  const base =
    listed[0] ??
    (typeof spec.output === "string" ? spec.output : defaultImagePath(stepId, ANY_PART));
  return [...listed, base, numbered(base, ANY_PART, 2)];
}

/** `a.png` → `a-2.png` for the second of several (as core numbers them); one keeps its name. */
function numbered(path: string, at: number | string, count: number): string {
  if (count <= 1) return path;
  const place = typeof at === "number" ? at + 1 : at;
  const dot = path.lastIndexOf(".");
  return dot > path.lastIndexOf("/")
    ? `${path.slice(0, dot)}-${place}${path.slice(dot)}`
    : `${path}-${place}`;
}

/** True for a reference that is not a local file: an http(s) URL or a data: URI. */
export function isRemoteReference(value: string): boolean {
  return /^(https?:|data:)/i.test(value);
}

/**
 * The local reference files an image step names literally (checked as images before
 * anything is paid); URLs, data URIs and expressions are left to the run.
 * @example imageFiles({ prompt: "x", references: ["sheet.png"] }) // [{ path: ["references", 0], file: "sheet.png", … }]
 */
export function imageFiles(spec: { references?: unknown }): LocalFileUse[] {
  if (!Array.isArray(spec.references)) return [];
  return spec.references.flatMap((reference, at): LocalFileUse[] =>
    typeof reference === "string" && !isRemoteReference(reference) && !reference.includes("${{")
      ? [{ path: ["references", at], file: reference, what: "reference image", format: "image" }]
      : [],
  );
}

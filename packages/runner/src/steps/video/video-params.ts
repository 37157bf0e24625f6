import type { VideoModelSpec } from "../../pipeline/core-shim.js";
import type { LocalFileUse } from "../step-kind.js";

/** How a path names an image file: by its ending. */
const IMAGE_FILE = /\.(png|jpe?g|gif|webp)$/i;

const isUrl = (value: string) => /^https?:\/\//i.test(value);

/**
 * True when a provider parameter's value names an image by its form alone: a `data:image/…`
 * URI, or a local path ending in .png, .jpg, .jpeg, .gif or .webp.
 * @example looksLikeImage("frames/last.png") // true
 * @example looksLikeImage("blurry") // false
 */
export function looksLikeImage(value: unknown): value is string {
  if (typeof value !== "string") return false;
  if (/^data:image\//i.test(value)) return true;
  return !isUrl(value) && IMAGE_FILE.test(value.trim());
}

/**
 * Whether a parameter is sent as an image (read, checked, uploaded like `image`): as the
 * model declares it (`type: image`), or, when the model does not declare it, when its value
 * looks like one ({@link looksLikeImage}).
 * @example isImageParam("last_frame", "https://x/y.png", { id: "m", params: { last_frame: { type: "image" } } }) // true
 */
export function isImageParam(name: string, value: unknown, model?: VideoModelSpec): boolean {
  const declared = model?.params?.[name];
  if (declared) return declared.type === "image" && typeof value === "string";
  return looksLikeImage(value);
}

/**
 * The local image files and data URIs a step's `params` name (by their form), for the files
 * check before anything is sent.
 * @example paramFiles({ seed: 7, last_frame: "frames/end.png" }) // [{ path: ["params", "last_frame"], file: "frames/end.png", … }]
 */
export function paramFiles(params: unknown): LocalFileUse[] {
  if (params === null || typeof params !== "object" || Array.isArray(params)) return [];
  return Object.entries(params)
    .filter(([, value]) => looksLikeImage(value))
    .map(([name, value]) => ({
      path: ["params", name],
      file: value as string,
      what: `image of \`params.${name}\``,
      format: "image" as const,
    }));
}

/**
 * The parameters to check against a model's spec before the run: those whose values are
 * known (`known` says which), except declared image parameters given as a local path (not an
 * image value yet: the files check reads it, and the request is checked again once it is read).
 * @example paramsToCheck({ seed: 7, prompt_image: "a.png" }, spec, () => true) // { seed: 7 }
 */
export function paramsToCheck(
  params: unknown,
  model: VideoModelSpec | undefined,
  known: (value: unknown) => boolean,
): Record<string, unknown> | undefined {
  if (params === null || typeof params !== "object" || Array.isArray(params)) return undefined;
  const checked: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || !known(value)) continue;
    const localImage =
      model?.params?.[name]?.type === "image" &&
      typeof value === "string" &&
      !/^(https?:|data:)/i.test(value);
    if (!localImage) checked[name] = value;
  }
  return checked;
}

import { readFile } from "node:fs/promises";
import { basename, isAbsolute, resolve } from "node:path";
import type { ImageInput, VideoModelSpec, VideoParamValue } from "@reelsmith/core";
import { InvalidImageError } from "../../errors/invalid-image-error.js";
import { dataUriImageProblem, imageFileProblem, sniffImage } from "../../files/image-file.js";
import { isImageParam } from "./video-params.js";

/**
 * An image parameter's value as it is sent: a URL passed on; a data URI or a local file
 * (relative to the pipeline's folder) as its bytes, after the same checks as `image` (an
 * image by its bytes, at most 10 MiB). Bytes go as a file part in the openai dialect and as
 * a data URI in the reference dialect. Throws InvalidImageError before anything is sent.
 * @example await paramImage("last_frame", "frames/end.png", pipelineDir) // { data, mimeType: "image/png", filename: "end.png" }
 */
export async function paramImage(
  name: string,
  value: string,
  baseDir: string,
): Promise<ImageInput> {
  if (/^https?:\/\//i.test(value)) return value;
  if (/^data:/i.test(value)) {
    const problem = dataUriImageProblem(value);
    if (problem)
      throw new InvalidImageError(`\`params.${name}\` (${value.slice(0, 32)}…)`, problem);
    const data = Buffer.from(value.slice(value.indexOf(",") + 1).replace(/\s+/g, ""), "base64");
    return { data, mimeType: sniffImage(data) ?? "application/octet-stream" };
  }
  const file = isAbsolute(value) ? value : resolve(baseDir, value);
  const problem = imageFileProblem(file);
  if (problem) throw new InvalidImageError(`${value} (\`params.${name}\`)`, problem);
  const data = new Uint8Array(await readFile(file));
  return {
    data,
    mimeType: sniffImage(data) ?? "application/octet-stream",
    filename: basename(file),
  };
}

/**
 * A step's evaluated `params` as the request sends them: each image parameter read
 * ({@link paramImage}), the others as they are; a value that evaluated to null is left out
 * (an optional input not given).
 * @example await requestParams({ seed: 7, last_frame: "end.png" }, model, dir) // { seed: 7, last_frame: { data, … } }
 */
export async function requestParams(
  params: Record<string, unknown>,
  model: VideoModelSpec | undefined,
  baseDir: string,
): Promise<Record<string, VideoParamValue>> {
  const sent: [string, VideoParamValue][] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    sent.push([
      name,
      typeof value === "string" && isImageParam(name, value, model)
        ? await paramImage(name, value, baseDir)
        : // Anything else is core's to check (it names a value of no usable type).
          (value as VideoParamValue),
    ]);
  }
  // Own data properties whatever the names (never a prototype).
  return Object.fromEntries(sent);
}

import path from "node:path";

const imageExtensions = new Set([".png", ".jpg", ".jpeg", ".webp", ".bmp"]);

/**
 * The ffmpeg arguments that write exactly one picture, checked against the output name.
 *
 * @example
 * imageOutputArgs("poster.jpg"); // ["-frames:v", "1", "-update", "1", "-q:v", "2"]
 */
export function imageOutputArgs(output: string): string[] {
  const extension = path.extname(output).toLowerCase();
  if (!imageExtensions.has(extension)) {
    throw new TypeError(`Expected an image output (.png, .jpg, .jpeg, .webp, .bmp); got ${output}`);
  }
  const quality = extension === ".jpg" || extension === ".jpeg" ? ["-q:v", "2"] : [];
  return ["-frames:v", "1", "-f", "image2", "-update", "1", ...quality];
}

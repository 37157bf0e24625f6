import { randomBytes } from "node:crypto";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";

/**
 * Run `write` against a temporary file beside `output` (same directory, same extension so
 * ffmpeg picks the right muxer) and rename it onto `output` only when `write` succeeds.
 * On any failure the temporary file is removed and nothing appears at `output`.
 *
 * @example
 * await withTempOutput("out/final.mp4", (temp) => runFfmpeg([..., temp]));
 */
export async function withTempOutput<T>(
  output: string,
  write: (tempPath: string) => Promise<T>,
): Promise<T> {
  const destination = path.resolve(output);
  const directory = path.dirname(destination);
  await mkdir(directory, { recursive: true });
  const extension = path.extname(destination).replace(/[^\w.]/g, "_");
  // Only safe characters: image muxers read `%d` in a name as a frame-number pattern.
  const stem = path
    .basename(destination, path.extname(destination))
    .replace(/[^\w.-]/g, "_")
    .slice(0, 60);
  const temp = path.join(directory, `.${stem}.${randomBytes(4).toString("hex")}.tmp${extension}`);
  try {
    const result = await write(temp);
    await rename(temp, destination);
    return result;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** A private scratch directory, removed after `use` settles. */
export async function withScratchDirectory<T>(
  near: string,
  use: (directory: string) => Promise<T>,
): Promise<T> {
  const parent = path.dirname(path.resolve(near));
  await mkdir(parent, { recursive: true });
  const directory = path.join(parent, `.reelsmith-media-${randomBytes(4).toString("hex")}`);
  await mkdir(directory);
  try {
    return await use(directory);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

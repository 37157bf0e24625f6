import { existsSync, statSync } from "node:fs";
import { extname, isAbsolute, resolve } from "node:path";
import type { RunFile } from "./report-model.js";

/** Extensions the page shows as pictures (`<img>`). */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set([
  ".png",
  ".jpg",
  ".jpeg",
  ".webp",
  ".gif",
]);

/** Extensions the page plays as sound (`<audio>`): a narration, a voice. */
export const AUDIO_EXTENSIONS: ReadonlySet<string> = new Set([
  ".wav",
  ".mp3",
  ".m4a",
  ".aac",
  ".ogg",
  ".opus",
  ".flac",
]);

/**
 * The image files a value names, when it is one (a path) or a list of them (nested lists
 * flattened) and each is an existing image file of the run directory; undefined for any other
 * value (a text, a number, a file outside the run, a video). `toRunFile` makes each a
 * {@link RunFile} relative to the run directory.
 * @example imageFilesOf(["keyframes/scene-0.png", "keyframes/scene-1.png"], runDir, toRunFile) // two RunFiles
 */
export function imageFilesOf(
  value: unknown,
  runDir: string,
  toRunFile: (runDir: string, file: unknown) => RunFile | undefined,
  extensions: ReadonlySet<string> = IMAGE_EXTENSIONS,
): RunFile[] | undefined {
  const values = Array.isArray(value) ? value.flat(2) : [value];
  if (values.length === 0) return undefined;
  const files: RunFile[] = [];
  for (const entry of values) {
    if (typeof entry !== "string" || !extensions.has(extname(entry).toLowerCase()))
      return undefined;
    const file = toRunFile(runDir, entry);
    const absolute = isAbsolute(entry) ? entry : resolve(runDir, entry);
    if (!file?.exists || !statSync(absolute).isFile()) return undefined;
    files.push(file);
  }
  return files;
}

/**
 * Every image file (or, with `AUDIO_EXTENSIONS`, sound file) a unit's outputs name (a field holding one path, or a list of paths),
 * in field order, each once.
 * @example unitImages({ file: "/runs/x/images/a-0-1.png", files: [...] }, runDir, toRunFile)
 */
export function unitImages(
  outputs: Record<string, unknown> | undefined,
  runDir: string,
  toRunFile: (runDir: string, file: unknown) => RunFile | undefined,
  extensions: ReadonlySet<string> = IMAGE_EXTENSIONS,
): RunFile[] {
  const seen = new Set<string>();
  const found: RunFile[] = [];
  for (const value of Object.values(outputs ?? {})) {
    for (const file of imageFilesOf(value, runDir, toRunFile, extensions) ?? []) {
      if (seen.has(file.relative) || !existsSync(resolve(runDir, file.relative))) continue;
      seen.add(file.relative);
      found.push(file);
    }
  }
  return found;
}

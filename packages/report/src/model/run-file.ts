import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { RunFile } from "./report-model.js";

/**
 * Where the thumbnail of a clip goes, relative to the run directory.
 * @example thumbnailPath("clips", 1) // "report/thumbs/clips-1.jpg"
 */
export function thumbnailPath(step: string, index: number | undefined): string {
  const safe = step.replace(/[^A-Za-z0-9._-]+/g, "_");
  return `report/thumbs/${safe}-${index ?? 0}.jpg`;
}

/**
 * A file named by the run, as the page refers to it: relative to the run directory. Files
 * outside it are not shown (the page only links what the directory holds).
 * @example runFile("runs/x", "runs/x/clips/1.mp4") // { relative: "clips/1.mp4", exists: true }
 */
export function runFile(runDir: string, file: unknown): RunFile | undefined {
  if (typeof file !== "string" || file === "") return undefined;
  const absolute = isAbsolute(file) ? file : resolve(runDir, file);
  const path = relative(runDir, absolute);
  if (path === "" || path.startsWith("..") || isAbsolute(path)) return undefined;
  return { relative: path.split(sep).join("/"), exists: existsSync(absolute) };
}

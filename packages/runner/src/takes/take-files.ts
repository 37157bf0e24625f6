import { constants, copyFileSync, existsSync, mkdirSync, renameSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { hashFile } from "../cache/cache-key.js";
import type { Artifact } from "../executor/artifacts.js";

/**
 * Where a take of a file is kept: beside it, the take's number before its extension.
 * @example takeFilePath("clips/scene-1.mp4", 1) // "clips/scene-1.take-1.mp4"
 */
export function takeFilePath(path: string, take: number): string {
  const extension = extname(path);
  return `${path.slice(0, path.length - extension.length)}.take-${take}${extension}`;
}

/** Copies a file of the run (a reflink where the file system offers one), atomically. */
function copyInRun(runDir: string, from: string, to: string): void {
  const target = join(runDir, to);
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  copyFileSync(join(runDir, from), temporary, constants.COPYFILE_FICLONE);
  renameSync(temporary, target);
}

/**
 * Keeps a take's files: each file its outputs name (at the pipeline's path) is copied to its
 * take's name. Returns where each is kept, with the kept bytes' sha256. A file that is gone
 * is left out.
 * @example await keepTakeFiles(runDir, { file: { path: "clips/scene-1.mp4", sha256 } }, 1)
 * // { file: { path: "clips/scene-1.take-1.mp4", sha256 } }
 */
export async function keepTakeFiles(
  runDir: string,
  artifacts: Readonly<Record<string, Artifact>>,
  take: number,
): Promise<Record<string, Artifact>> {
  const kept: Record<string, Artifact> = {};
  for (const [field, artifact] of Object.entries(artifacts)) {
    if (!existsSync(join(runDir, artifact.path))) continue;
    const path = takeFilePath(artifact.path, take);
    copyInRun(runDir, artifact.path, path);
    kept[field] = { path, sha256: await hashFile(join(runDir, path)) };
  }
  return kept;
}

/**
 * The kept files of a take that are gone or changed since they were kept (empty: intact).
 * @example await damagedTakeFiles(runDir, take.kept) // ["clips/scene-1.take-1.mp4"]
 */
export async function damagedTakeFiles(
  runDir: string,
  kept: Readonly<Record<string, Artifact>>,
): Promise<string[]> {
  const damaged: string[] = [];
  for (const artifact of Object.values(kept)) {
    const file = join(runDir, artifact.path);
    const sha256 = existsSync(file) ? await hashFile(file).catch(() => "") : "";
    if (sha256 !== artifact.sha256) damaged.push(artifact.path);
  }
  return damaged;
}

/**
 * Puts a kept take back where the pipeline names its files (later steps read them there).
 * @example placeTakeFiles(runDir, take.kept, take.artifacts)
 */
export function placeTakeFiles(
  runDir: string,
  kept: Readonly<Record<string, Artifact>>,
  places: Readonly<Record<string, Artifact>>,
): void {
  for (const [field, artifact] of Object.entries(kept)) {
    const place = places[field];
    if (place) copyInRun(runDir, artifact.path, place.path);
  }
}

import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { hashFile } from "../cache/cache-key.js";

/** A file a unit wrote into the run directory, as journaled: where, and its bytes' sha256. */
export interface Artifact {
  /** Path relative to the run directory. */
  path: string;
  sha256: string;
}

function insideRun(runDir: string, path: string): boolean {
  const rel = relative(runDir, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

/**
 * The files a unit's outputs name (top-level strings that are files inside the run
 * directory), by output field, with their sha256, for the journal.
 * @example await artifactsOf({ file: "/runs/x/final.mp4" }, "/runs/x") // { file: { path: "final.mp4", sha256: "…" } }
 */
export async function artifactsOf(
  outputs: Record<string, unknown>,
  runDir: string,
): Promise<Record<string, Artifact>> {
  return hashedArtifacts(outputFiles(outputs, runDir), runDir);
}

/**
 * The files a unit's outputs name (top-level strings that are files inside the run
 * directory), as `[field, path]`: a list of files (an image step's `files`) item by item,
 * `files.0`, `files.1`, …
 * @example outputFiles({ file: "/runs/x/final.mp4", text: "hi" }, "/runs/x") // [["file", "/runs/x/final.mp4"]]
 */
export function outputFiles(outputs: Record<string, unknown>, runDir: string): [string, string][] {
  const files: [string, string][] = [];
  const note = (field: string, value: unknown) => {
    if (typeof value !== "string" || !isAbsolute(value) || !insideRun(runDir, value)) return;
    if (existsSync(value) && statSync(value).isFile()) files.push([field, value]);
  };
  for (const field of Object.keys(outputs)) {
    const value = outputs[field];
    if (!Array.isArray(value)) note(field, value);
    else for (const [at, item] of value.entries()) note(`${field}.${at}`, item);
  }
  return files;
}

/**
 * The artifacts of {@link outputFiles}' files: each one's path in the run directory and its
 * bytes' sha256.
 * @example await hashedArtifacts([["file", "/runs/x/final.mp4"]], "/runs/x") // { file: { path: "final.mp4", sha256: "…" } }
 */
export async function hashedArtifacts(
  files: readonly [string, string][],
  runDir: string,
): Promise<Record<string, Artifact>> {
  const artifacts: Record<string, Artifact> = {};
  for (const [field, file] of files)
    artifacts[field] = { path: relative(runDir, file), sha256: await hashFile(file) };
  return artifacts;
}

/**
 * True when every journaled artifact still exists with the journaled bytes. A result
 * journaled without hashes (an older run) is checked for the files its outputs name.
 * @example if (!(await artifactsIntact(item, runDir))) rerun(item);
 */
export async function artifactsIntact(
  result: { outputs?: unknown; artifacts?: Record<string, Artifact> },
  runDir: string,
): Promise<boolean> {
  if (result.artifacts) {
    for (const artifact of Object.values(result.artifacts)) {
      const file = join(runDir, artifact.path);
      if (!existsSync(file) || (await hashFile(file).catch(() => "")) !== artifact.sha256)
        return false;
    }
    return true;
  }
  const outputs = result.outputs;
  if (!outputs || typeof outputs !== "object" || Array.isArray(outputs)) return true;
  return Object.values(outputs).every(
    (value) =>
      typeof value !== "string" ||
      !isAbsolute(value) ||
      !insideRun(runDir, value) ||
      existsSync(value),
  );
}

import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { OutputPathError } from "../errors/output-path-error.js";

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Resolves a path named by a pipeline inside the run directory. Refuses absolute paths,
 * `..` segments, NUL bytes, and paths whose existing part is a symlink leading outside.
 * @example resolveOutputPath("runs/x", "clips/scene-1.mp4") // "/abs/runs/x/clips/scene-1.mp4"
 * @throws OutputPathError
 */
export function resolveOutputPath(runDir: string, path: string): string {
  if (typeof path !== "string" || path.trim() === "") {
    throw new OutputPathError(String(path), "it is empty");
  }
  if (path.includes("\0")) throw new OutputPathError(path, "it contains a NUL byte");
  if (isAbsolute(path) || /^[a-zA-Z]:[\\/]/.test(path) || path.startsWith("\\")) {
    throw new OutputPathError(
      path,
      "absolute paths are not allowed; name a path inside the run directory",
    );
  }
  if (path.split(/[\\/]+/).includes("..")) {
    throw new OutputPathError(path, "'..' would leave the run directory");
  }
  const root = resolve(runDir);
  const target = resolve(root, path);
  if (!inside(root, target))
    throw new OutputPathError(path, "it resolves outside the run directory");
  // Follow symlinks on the deepest part of the path that exists.
  const realRoot = existsSync(root) ? realpathSync(root) : root;
  let probe = target;
  while (!existsSync(probe) && probe !== root && inside(root, probe)) probe = dirname(probe);
  if (existsSync(probe)) {
    const real = realpathSync(probe);
    if (!inside(realRoot, real)) {
      throw new OutputPathError(path, "a symlink in it points outside the run directory");
    }
  }
  return join(root, relative(root, target));
}

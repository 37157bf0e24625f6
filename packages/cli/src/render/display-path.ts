import path from "node:path";

/**
 * An output path made absolute against the run directory.
 *
 * @example
 * resolveOutput("final.mp4", "/runs/x"); // "/runs/x/final.mp4"
 */
export function resolveOutput(file: string, runDir: string): string {
  return path.isAbsolute(file) ? file : path.resolve(runDir, file);
}

/**
 * A path relative to `cwd` when it is inside it, else absolute.
 *
 * @example
 * displayPath("/work/runs/x/final.mp4", "/work"); // "runs/x/final.mp4"
 */
export function displayPath(file: string, cwd: string): string {
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : absolute;
}

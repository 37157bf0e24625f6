import { existsSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";

const RUN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Whether a URL segment can name a run: a plain name (letters, digits, `.`, `_`, `-`; not
 * starting with a dot), as run directories and database run ids are named, or two such
 * names joined by `~` (a batch's row).
 * @example isRunName("20260101-120000-storyboard-3f2a1b") // true
 */
export function isRunName(name: string): boolean {
  const parts = name.split(ROW_SEPARATOR);
  return (
    parts.length <= 2 && parts.every((part) => RUN_NAME.test(part) && part !== "." && part !== "..")
  );
}

/** Between a batch directory's name and a row's id in the name of the row's run. */
export const ROW_SEPARATOR = "~";

/**
 * The name the studio gives the run of a batch's row: `BATCH~ROW` (its directory is
 * `BATCH/rows/ROW`).
 * @example rowRunName("20260101-120000-storyboard-batch", "r-1a2b") // "20260101-…-batch~r-1a2b"
 */
export function rowRunName(batch: string, row: string): string {
  return `${batch}${ROW_SEPARATOR}${row}`;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The run directory a URL segment names: a plain name of a directory right under the runs
 * directory (no `..`, no slash, no symbolic link leading elsewhere), or `BATCH~ROW` for the
 * run of a batch's row (`BATCH/rows/ROW`), else undefined.
 * @example runDirectory("/srv/runs", "20260101-120000-storyboard") // "/srv/runs/2026…"
 */
export function runDirectory(runsDir: string, name: string): string | undefined {
  if (!isRunName(name)) return undefined;
  const root = resolve(runsDir);
  const [batch = "", row] = name.split(ROW_SEPARATOR);
  // A batch's row: its run is in the batch directory (one that holds a batch journal).
  if (row !== undefined && !existsSync(join(root, batch, "batch.jsonl"))) return undefined;
  const dir = row === undefined ? join(root, name) : join(root, batch, "rows", row);
  try {
    const real = realpathSync(dir);
    if (!inside(realpathSync(root), real) || !statSync(real).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  return dir;
}

/**
 * The file of a run directory a URL's encoded segments name, or undefined when it is not a
 * regular file inside the run directory: every segment is decoded once and refused when it is
 * empty, `.`, `..`, or holds a slash, a backslash or a NUL (an encoded `%2F` included); the
 * file's real path (symbolic links followed) must still be inside the run directory.
 * @example runFilePath("/srv/runs/x", ["clips", "scene-0.mp4"]) // "/srv/runs/x/clips/scene-0.mp4"
 */
export function runFilePath(runDir: string, encoded: readonly string[]): string | undefined {
  const segments: string[] = [];
  for (const raw of encoded) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment === "" || segment === "." || segment === "..") return undefined;
    if (/[/\\\0]/.test(segment)) return undefined;
    segments.push(segment);
  }
  if (segments.length === 0) return undefined;
  const file = join(runDir, ...segments);
  if (!inside(runDir, file) || !existsSync(file)) return undefined;
  try {
    const real = realpathSync(file);
    if (!inside(realpathSync(runDir), real) || !statSync(real).isFile()) return undefined;
    return real;
  } catch {
    return undefined;
  }
}

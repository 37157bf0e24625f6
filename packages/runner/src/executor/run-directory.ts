import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { RunDirectoryInUseError } from "../errors/run-directory-in-use-error.js";

function stamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/** Files that mark a directory as holding a run. */
const RUN_FILES = ["journal.jsonl", "run.json"];

/** Prefix of the hidden directory a new run is staged in before it gets its name. */
function stagingPrefix(dir: string): string {
  return `.${basename(dir)}.starting-`;
}

/** A new run's id: random, so that two runs never share an Idempotency-Key. */
export function newRunId(): string {
  return randomBytes(9).toString("base64url");
}

/** fsync of an open file, off the main thread (several run at once in libuv's pool). */
function syncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) =>
    fsync(fd, (error) => (error ? reject(error) : resolve())),
  );
}

/**
 * Writes new files and makes them durable: every file is written first, then all are
 * fsync'd at once (one disk flush's wait instead of one per file).
 */
async function writeAllDurably(files: ReadonlyArray<[string, string]>): Promise<void> {
  const fds: number[] = [];
  try {
    for (const [file, content] of files) {
      const fd = openSync(file, "w");
      fds.push(fd);
      writeSync(fd, content);
    }
    await Promise.all(fds.map(syncFd));
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}

/** Makes a rename in `dir` durable, off the main thread. */
async function syncDirectory(dir: string): Promise<void> {
  let fd: number;
  try {
    fd = openSync(dir, "r");
  } catch {
    return; // some platforms cannot open a directory (then the OS decides)
  }
  try {
    await syncFd(fd);
  } catch {
    // best effort
  } finally {
    closeSync(fd);
  }
}

/** Refuses a directory that already holds a run, or other files a run would mix with. */
function assertFree(dir: string): void {
  if (!existsSync(dir)) return;
  const entries = readdirSync(dir);
  if (entries.some((name) => RUN_FILES.includes(name))) {
    throw new RunDirectoryInUseError(dir, "it already holds a run");
  }
  if (entries.length > 0) throw new RunDirectoryInUseError(dir, "it is not empty");
}

/**
 * Creates a run directory with its first files in one atomic step: they are written and
 * fsync'd in a hidden staging directory beside it, which is then renamed into place. A
 * process killed at any instant leaves either no run directory (nothing was started) or one
 * that `resume` can continue. An explicit `runDir` must be new or empty; the default is
 * `<runsRoot>/<YYYYMMDD-HHMMSS>-<name>` (a suffix when taken). Returns the absolute path.
 * @example await createRunDirectory({ runsRoot: "runs", name: "storyboard" }, { "run.json": "{}\n" })
 */
export async function createRunDirectory(
  where: { runsRoot: string; name: string; runDir?: string },
  files: Record<string, string>,
): Promise<string> {
  const explicit = where.runDir ? resolve(where.runDir) : undefined;
  const parent = explicit ? dirname(explicit) : resolve(where.runsRoot);
  mkdirSync(parent, { recursive: true });
  const safeName =
    where.name
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^[-.]+/, "")
      .slice(0, 60) || "run";
  const base = explicit ?? join(parent, `${stamp(new Date())}-${safeName}`);
  if (explicit) assertFree(explicit);
  const staging = join(
    parent,
    `${stagingPrefix(base)}${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  mkdirSync(staging);
  try {
    // The files are created (their entries in the directory) before the directory's own
    // fsync starts, so both flushes run at once; the rename waits for them.
    await Promise.all([
      writeAllDurably(
        Object.entries(files).map(([name, content]) => [join(staging, name), content]),
      ),
      syncDirectory(staging),
    ]);
    for (let n = 1; ; n++) {
      const dir = explicit ?? (n === 1 ? base : `${base}-${n}`);
      try {
        if (explicit && existsSync(dir)) {
          assertFree(dir);
          rmdirSync(dir); // empty: the staged run takes its place
        } else if (!explicit && existsSync(dir)) continue;
        renameSync(staging, dir);
        await syncDirectory(parent);
        return dir;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "EEXIST" && code !== "ENOTEMPTY") throw error;
        // Another process took the name in between.
        if (explicit) throw new RunDirectoryInUseError(dir, "another run was just started in it");
      }
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Staging directories left beside `runDir` by a process killed before the run directory got
 * its name (nothing was sent to the service by then).
 * @example leftoverStaging("runs/x") // ["/abs/runs/.x.starting-123-ab12cd34"]
 */
export function leftoverStaging(runDir: string): string[] {
  const dir = resolve(runDir);
  const prefix = stagingPrefix(dir);
  try {
    return readdirSync(dirname(dir))
      .filter((name) => name.startsWith(prefix))
      .map((name) => join(dirname(dir), name));
  } catch {
    return [];
  }
}

/**
 * Writes a JSON file atomically (temp file + fsync + rename), so a crash never leaves half a
 * file. With `after`, the file takes its place only once that settles too (its flush and the
 * temp file's run at once): a run.json that says a run ended never precedes the journal's
 * `run.end` on disk. A failure of `after` leaves the file as it was.
 * @example await writeJsonAtomic("runs/x/run.json", { status: "running" });
 */
export async function writeJsonAtomic(
  file: string,
  value: unknown,
  after?: Promise<unknown>,
): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  const written = writeAllDurably([[temp, `${JSON.stringify(value, null, 2)}\n`]]);
  if (after) {
    const [wrote, first] = await Promise.allSettled([written, after]);
    if (wrote.status === "rejected") throw wrote.reason;
    if (first.status === "rejected") {
      rmSync(temp, { force: true });
      throw first.reason;
    }
  } else await written;
  renameSync(temp, file);
}

/** Removes staging leftovers (they hold no request, only the files a run starts with). */
export function removeStaging(paths: readonly string[]): void {
  for (const path of paths) rmSync(path, { recursive: true, force: true });
}

import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

function stamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

/**
 * Creates a fresh run directory `<runsRoot>/<YYYYMMDD-HHMMSS>-<name>` (a suffix when taken).
 * @example createRunDirectory("runs", "storyboard") // "/abs/runs/20260101-120000-storyboard"
 */
export function createRunDirectory(runsRoot: string, name: string, runDir?: string): string {
  if (runDir) {
    const dir = resolve(runDir);
    mkdirSync(dir, { recursive: true });
    return dir;
  }
  const safeName =
    name
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^[-.]+/, "")
      .slice(0, 60) || "run";
  const base = join(resolve(runsRoot), `${stamp(new Date())}-${safeName}`);
  mkdirSync(resolve(runsRoot), { recursive: true });
  for (let n = 1; ; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    if (existsSync(dir)) continue;
    try {
      mkdirSync(dir);
      return dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

/**
 * Writes a JSON file atomically (temp file + rename), so a crash never leaves half a file.
 * @example writeJsonAtomic("runs/x/run.json", { status: "running" });
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temp, file);
}

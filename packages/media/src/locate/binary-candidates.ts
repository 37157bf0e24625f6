import { constants } from "node:fs";
import { access, chmod, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

/** Where a binary came from. */
export type BinarySource = "env" | "path" | "npm" | "given";

/** One place a binary might be. */
export interface BinaryCandidate {
  path: string;
  source: BinarySource;
}

const exe = process.platform === "win32" ? ".exe" : "";

/** The `FFMPEG_PATH` / `FFPROBE_PATH` candidate, if the variable is set. */
export function envCandidate(name: "ffmpeg" | "ffprobe"): BinaryCandidate | undefined {
  const value = process.env[`${name.toUpperCase()}_PATH`];
  return value ? { path: path.resolve(value), source: "env" } : undefined;
}

/** The first executable named `name` on PATH. */
export async function pathCandidate(
  name: "ffmpeg" | "ffprobe",
): Promise<BinaryCandidate | undefined> {
  const directories = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  for (const directory of directories) {
    const file = path.join(directory, name + exe);
    if (await isExecutableFile(file)) return { path: file, source: "path" };
  }
  return undefined;
}

/**
 * The binary shipped by `@ffmpeg-installer/ffmpeg` or `@ffprobe-installer/ffprobe` for this
 * platform. The platform package is a dependency of the installer package, so it is resolved
 * from there (works with pnpm's strict layout).
 */
export function npmCandidate(name: "ffmpeg" | "ffprobe"): BinaryCandidate | undefined {
  const installer = `@${name}-installer/${name}`;
  const platformPackage = `@${name}-installer/${process.platform}-${process.arch}`;
  try {
    const require = createRequire(import.meta.url);
    const installerJson = require.resolve(`${installer}/package.json`);
    const platformJson = createRequire(installerJson).resolve(`${platformPackage}/package.json`);
    return { path: path.join(path.dirname(platformJson), name + exe), source: "npm" };
  } catch {
    return undefined;
  }
}

/**
 * Make sure `file` can be executed. npm-shipped binaries lose their executable bit when
 * install scripts did not run; when the file belongs to this user, it is fixed in place
 * (what the package's own postinstall would have done). Returns a reason when unusable.
 */
export async function ensureExecutable(
  candidate: BinaryCandidate,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(candidate.path);
  } catch {
    return { ok: false, reason: `${candidate.path} does not exist` };
  }
  if (!info.isFile()) return { ok: false, reason: `${candidate.path} is not a file` };
  if (await isExecutableFile(candidate.path)) return { ok: true };
  const ours = typeof process.getuid === "function" && info.uid === process.getuid();
  if (candidate.source === "npm" && ours) {
    try {
      await chmod(candidate.path, info.mode | 0o755);
      if (await isExecutableFile(candidate.path)) return { ok: true };
    } catch (error) {
      return {
        ok: false,
        reason: `${candidate.path} is not executable and chmod failed (${(error as Error).message})`,
      };
    }
  }
  return {
    ok: false,
    reason: `${candidate.path} is not executable (run \`chmod +x ${candidate.path}\`, or reinstall with install scripts enabled)`,
  };
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Paths of the ffmpeg and ffprobe npm ships for this platform (`undefined` when the optional
 * packages are not installed), whatever `locateFfmpeg` would pick: to run with the bundled
 * build on purpose, e.g. `FFMPEG_PATH=… FFPROBE_PATH=…`.
 *
 * @example
 * const { ffmpeg, ffprobe } = bundledBinaries();
 */
export function bundledBinaries(): { ffmpeg?: string; ffprobe?: string } {
  const ffmpeg = npmCandidate("ffmpeg")?.path;
  const ffprobe = npmCandidate("ffprobe")?.path;
  return { ...(ffmpeg ? { ffmpeg } : {}), ...(ffprobe ? { ffprobe } : {}) };
}

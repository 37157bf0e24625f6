import { access } from "node:fs/promises";
import path from "node:path";
import { FfmpegNotFoundError } from "../errors/ffmpeg-not-found-error.js";
import { MediaError } from "../errors/media-error.js";
import { runProcess } from "../process/run-process.js";
import {
  type BinaryCandidate,
  type BinarySource,
  ensureExecutable,
  envCandidate,
  npmCandidate,
  pathCandidate,
} from "./binary-candidates.js";
import { bundledFontFile } from "./font-file.js";

/** One located binary. */
export interface BinaryInfo {
  /** Absolute path of the executable. */
  path: string;
  /** The version string from `-version`, e.g. `5.1.6-0+deb12u1` or `N-47683-g0e8eb07980-static`. */
  version: string;
  /** Where it was found: `FFMPEG_PATH`/`FFPROBE_PATH`, PATH, the npm package, or given to {@link ffmpegToolsAt}. */
  source: BinarySource;
}

/** What the located ffmpeg can do. */
export interface FfmpegCapabilities {
  libx264: boolean;
  aac: boolean;
  drawtext: boolean;
  subtitles: boolean;
  /** The `xfade` filter (ffmpeg >= 4.3): transition joins blend with it when present. */
  xfade: boolean;
  /**
   * Transition joins work: `acrossfade` for the sound and, for the picture, `xfade` or its
   * fallback (`fade` with alpha + `overlay` over a `color` background, in every ffmpeg since 2.x).
   */
  transitions: boolean;
}

/** The binaries, their capabilities and the font every text operation uses. */
export interface FfmpegTools {
  ffmpeg: BinaryInfo;
  ffprobe: BinaryInfo;
  capabilities: FfmpegCapabilities;
  /** A TrueType font file passed to `drawtext` as `fontfile`. */
  fontFile: string;
}

let cached: Promise<FfmpegTools> | undefined;

/**
 * Find ffmpeg and ffprobe: `FFMPEG_PATH`/`FFPROBE_PATH` first (an unusable value is an error,
 * not silently skipped), then PATH, then the binaries shipped by `@ffmpeg-installer/ffmpeg`
 * and `@ffprobe-installer/ffprobe`. The result is cached; pass `refresh: true` to look again.
 *
 * @example
 * const tools = await locateFfmpeg();
 * console.log(tools.ffmpeg.path, tools.ffmpeg.version, tools.capabilities.xfade);
 */
export function locateFfmpeg(options: { refresh?: boolean } = {}): Promise<FfmpegTools> {
  if (!cached || options.refresh) {
    const attempt = locate();
    cached = attempt;
    attempt.catch(() => {
      if (cached === attempt) cached = undefined;
    });
  }
  return cached;
}

async function locate(): Promise<FfmpegTools> {
  const [ffmpeg, ffprobe] = await Promise.all([findBinary("ffmpeg"), findBinary("ffprobe")]);
  return describeTools(ffmpeg, ffprobe);
}

async function describeTools(ffmpeg: BinaryInfo, ffprobe: BinaryInfo): Promise<FfmpegTools> {
  const [capabilities, fontFile] = await Promise.all([detectCapabilities(ffmpeg.path), findFont()]);
  return { ffmpeg, ffprobe, capabilities, fontFile };
}

/**
 * The tools for two given binaries (not cached, no search): to run operations with another
 * ffmpeg than the one {@link locateFfmpeg} picks, e.g. to compare two builds. Throws
 * {@link FfmpegNotFoundError} when a path is not a working ffmpeg/ffprobe.
 *
 * @example
 * const tools = await ffmpegToolsAt({ ffmpeg: "/usr/bin/ffmpeg", ffprobe: "/usr/bin/ffprobe" });
 * await concat(files, { output: "out.mp4", tools });
 */
export async function ffmpegToolsAt(paths: {
  ffmpeg: string;
  ffprobe: string;
}): Promise<FfmpegTools> {
  const found = await Promise.all(
    (["ffmpeg", "ffprobe"] as const).map(async (name) => {
      const tried: string[] = [];
      const candidate: BinaryCandidate = { path: path.resolve(paths[name]), source: "given" };
      const info = await tryCandidate(name, candidate, tried);
      if (!info) throw new FfmpegNotFoundError(name, tried);
      return info;
    }),
  );
  return describeTools(found[0] as BinaryInfo, found[1] as BinaryInfo);
}

async function findBinary(name: "ffmpeg" | "ffprobe"): Promise<BinaryInfo> {
  const tried: string[] = [];
  const fromEnv = envCandidate(name);
  if (fromEnv) {
    const found = await tryCandidate(name, fromEnv, tried);
    if (found) return found;
    throw new FfmpegNotFoundError(name, tried);
  }
  const fromPath = await pathCandidate(name);
  if (fromPath) {
    const found = await tryCandidate(name, fromPath, tried);
    if (found) return found;
  } else {
    tried.push(`no ${name} on PATH`);
  }
  const fromNpm = npmCandidate(name);
  if (fromNpm) {
    const found = await tryCandidate(name, fromNpm, tried);
    if (found) return found;
  } else {
    tried.push(
      `@${name}-installer/${name} is not installed for ${process.platform}-${process.arch}`,
    );
  }
  throw new FfmpegNotFoundError(name, tried);
}

async function tryCandidate(
  name: string,
  candidate: BinaryCandidate,
  tried: string[],
): Promise<BinaryInfo | undefined> {
  const usable = await ensureExecutable(candidate);
  if (!usable.ok) {
    tried.push(`${candidate.source}: ${usable.reason}`);
    return undefined;
  }
  try {
    const { stdout } = await runProcess(candidate.path, ["-hide_banner", "-version"]);
    const match = new RegExp(`^${name} version (\\S+)`, "m").exec(stdout);
    if (!match?.[1]) {
      tried.push(`${candidate.source}: ${candidate.path} -version did not identify ${name}`);
      return undefined;
    }
    return { path: candidate.path, version: match[1], source: candidate.source };
  } catch (error) {
    tried.push(
      `${candidate.source}: ${candidate.path} failed to run (${(error as Error).message})`,
    );
    return undefined;
  }
}

async function detectCapabilities(ffmpegPath: string): Promise<FfmpegCapabilities> {
  const [filters, encoders] = await Promise.all([
    runProcess(ffmpegPath, ["-hide_banner", "-filters"]),
    runProcess(ffmpegPath, ["-hide_banner", "-encoders"]),
  ]);
  const hasFilter = (filter: string) =>
    new RegExp(`^\\s*\\S+\\s+${filter}\\s`, "m").test(filters.stdout);
  const hasEncoder = (encoder: string) =>
    new RegExp(`^\\s*[VAS][\\w.]{5}\\s+${encoder}\\s`, "m").test(encoders.stdout);
  return {
    libx264: hasEncoder("libx264"),
    aac: hasEncoder("aac"),
    drawtext: hasFilter("drawtext"),
    subtitles: hasFilter("subtitles"),
    xfade: hasFilter("xfade"),
    transitions:
      hasFilter("acrossfade") &&
      (hasFilter("xfade") || (hasFilter("fade") && hasFilter("overlay") && hasFilter("color"))),
  };
}

async function findFont(): Promise<string> {
  try {
    const fontFile = bundledFontFile();
    await access(fontFile);
    return fontFile;
  } catch (error) {
    throw new MediaError(
      "The bundled font (dejavu-fonts-ttf) is missing; reinstall @reelsmith/media",
      {
        code: "font_not_found",
        cause: error,
      },
    );
  }
}

import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MediaVerificationError } from "../errors/media-verification-error.js";
import { escapeFilterValue, parseSize } from "../filters/escape.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { createProgressTracker } from "../process/progress.js";
import { resolveTools, runFfmpeg } from "../process/run-ffmpeg.js";
import { withTempOutput } from "../process/temp-output.js";
import { wrapText } from "./wrap-text.js";

/** Options of {@link synthesizeClip}. */
export interface SynthesizeClipOptions extends MediaOptions {
  /** Destination MP4. */
  output: string;
  /** Exact length in seconds. */
  seconds: number;
  /** `WIDTHxHEIGHT`, even numbers. */
  size: string;
  /** Frames per second (default 24). */
  fps?: number;
  /**
   * Text drawn once, in a box in the middle of the frame (wrapped to fit, readable at 480p).
   * Leave it out (or empty) for a clip of a picture that carries its own words: the picture is
   * then shown as it is, without a second layer of text over it.
   */
  text?: string;
  /** Background colour (`navy`, `#1d3557`, `0x1d3557`); default derived from the text. */
  background?: string;
  /** A picture used as the background instead of a colour (scaled to cover the frame). */
  image?: string;
  /**
   * How a picture moves (only with `image`): `zoom` (default) a slow push in on its middle,
   * `none` a still.
   */
  motion?: ClipMotion;
}

/** How the picture of a clip made from a picture moves. */
export type ClipMotion = "zoom" | "none";

/** How much a `zoom` clip has pushed in by its last frame (1.04: 4 % closer). */
export const clipZoom = 1.04;

/** What {@link clipVideoGraph} builds a clip's picture from. */
export interface ClipVideoGraphOptions {
  width: number;
  height: number;
  fps: number;
  seconds: number;
  /** The `drawtext` options of the text layer, or nothing: no text. */
  drawtext?: string;
  /** The input is a still picture of twice the frame's size (else a colour source). */
  image?: boolean;
  motion?: ClipMotion;
}

/**
 * The video part of a synthesized clip's filter graph (`[0:v]…[v]`): a colour or a picture
 * (pushed in slowly with `zoompan`, which ffmpeg 4.1 has, from one decoded frame), then at
 * most one `drawtext` layer on top, which does not move with the picture.
 *
 * @example
 * clipVideoGraph({ width: 854, height: 480, fps: 24, seconds: 4, image: true, motion: "zoom" });
 * // "[0:v]zoompan=z='1+0.04*on/95':…:d=96:s=854x480:fps=24,setsar=1,format=yuv420p[v]"
 */
export function clipVideoGraph(options: ClipVideoGraphOptions): string {
  const { width, height, fps } = options;
  const filters: string[] = [];
  if (options.image) {
    const frames = Math.max(1, Math.ceil(options.seconds * fps - 1e-9));
    const zoom = options.motion === "none" ? 1 : clipZoom;
    const step = (zoom - 1) / Math.max(1, frames - 1);
    filters.push(
      `zoompan=z='1+${step.toFixed(8)}*on':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=${frames}:s=${width}x${height}:fps=${fps}`,
      "setsar=1",
    );
  } else {
    filters.push("setsar=1", `fps=${fps}`);
  }
  if (options.drawtext) filters.push(`drawtext=${options.drawtext}`);
  filters.push("format=yuv420p");
  return `[0:v]${filters.join(",")}[v]`;
}

/**
 * Make a real H.264 + AAC MP4 of exactly `seconds` and `size` showing `text` over a colour, or
 * `image` pushed in slowly (with `text` over it only when given), with a quiet tone: what the
 * simulator returns as a generated video.
 *
 * @example
 * const { info } = await synthesizeClip({ output: "scene-1.mp4", seconds: 4, size: "1280x720", text: "A lighthouse at dawn" });
 */
export async function synthesizeClip(
  options: SynthesizeClipOptions,
): Promise<{ output: string; info: MediaInfo }> {
  const { width, height } = parseSize(options.size);
  const { seconds, fps, background } = checkClipOptions(options);
  const text = options.text?.trim() ? options.text : undefined;
  const tools = await resolveTools(options);
  requireCapabilities(tools, ["drawtext", "libx264", "aac"]);

  // One box in the middle of the frame, at most 44 % of its height: readable at 480p (a
  // 34 px font), and clear of the corner where an image's references are inset.
  const fontSize = Math.max(10, Math.round(Math.min(height / 14, width / 18)));
  const lines = text
    ? wrapText(
        text,
        (width * 0.86) / (fontSize * 0.6),
        Math.max(1, Math.floor((height * 0.44) / (fontSize * 1.3))),
      )
    : [];
  const textDirectory = await mkdtemp(path.join(tmpdir(), "reelsmith-text-"));
  try {
    const textFile = path.join(textDirectory, "text.txt");
    await writeFile(textFile, lines.join("\n"), "utf8");
    const drawtext = drawtextOptions(tools, textFile, fontSize);
    const inputs = options.image
      ? await stillInput(tools, options, options.image, { width, height }, textDirectory)
      : ["-f", "lavfi", "-i", `color=c=${background}:s=${width}x${height}:r=${fps}:d=${seconds}`];
    const graph = [
      clipVideoGraph({
        width,
        height,
        fps,
        seconds,
        ...(lines.length > 0 ? { drawtext } : {}),
        image: Boolean(options.image),
        motion: options.motion ?? "zoom",
      }),
      "[1:a]volume=0.1,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo[a]",
    ].join(";");
    const progress = createProgressTracker(options.onProgress, seconds);
    return await withTempOutput(options.output, async (temp) => {
      await runFfmpeg(
        tools,
        [
          ...inputs,
          "-f",
          "lavfi",
          "-i",
          `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
          "-filter_complex",
          graph,
          "-map",
          "[v]",
          "-map",
          "[a]",
          "-c:v",
          "libx264",
          "-preset",
          "ultrafast",
          "-pix_fmt",
          "yuv420p",
          "-r",
          String(fps),
          "-c:a",
          "aac",
          "-b:a",
          "96k",
          "-ar",
          "48000",
          "-ac",
          "2",
          "-t",
          String(seconds),
          "-movflags",
          "+faststart",
          temp,
        ],
        {
          signal: options.signal,
          stallTimeoutMs: options.stallTimeoutMs,
          onProgressLine: progress.window(0, seconds),
        },
      );
      const info = await probe(temp, { tools, signal: options.signal });
      const problems = clipProblems(info, { width, height, seconds, fps });
      if (problems.length > 0)
        throw new MediaVerificationError(path.resolve(options.output), problems);
      progress.done();
      return { output: path.resolve(options.output), info };
    });
  } finally {
    await rm(textDirectory, { recursive: true, force: true });
  }
}

/** The clip's length, frame rate and background colour, refused with a message when wrong. */
function checkClipOptions(options: SynthesizeClipOptions): {
  seconds: number;
  fps: number;
  background: string;
} {
  const seconds = options.seconds;
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new TypeError(`Expected \`seconds\` to be a positive number; got ${seconds}`);
  }
  const fps = options.fps ?? 24;
  if (!Number.isFinite(fps) || fps <= 0 || fps > 240) {
    throw new TypeError(`Expected \`fps\` to be a number from 1 to 240; got ${fps}`);
  }
  const background = options.background ?? colourFor(options.text ?? "");
  if (!/^[#\w.@]+$/.test(background)) {
    throw new TypeError(
      `Expected \`background\` to be a colour such as navy or #1d3557; got ${JSON.stringify(background)}`,
    );
  }
  return { seconds, fps, background };
}

/** drawtext's options: the text file's lines in a half-transparent box in the middle. */
function drawtextOptions(tools: FfmpegTools, textFile: string, fontSize: number): string {
  return [
    `fontfile=${escapeFilterValue(tools.fontFile)}`,
    `textfile=${escapeFilterValue(textFile)}`,
    "expansion=none",
    `fontsize=${fontSize}`,
    "fontcolor=white",
    `line_spacing=${Math.round(fontSize * 0.3)}`,
    "box=1",
    "boxcolor=black@0.6",
    `boxborderw=${Math.round(fontSize / 3)}`,
    "x=(w-text_w)/2",
    "y=(h-text_h)/2",
  ].join(":");
}

/**
 * Decodes the picture once, cropped to cover the frame, into a PNG of our own: this validates
 * it (a looped input that cannot be decoded would never advance and hang) and lets any format
 * or extension ffmpeg can read serve as the background. Twice the frame's size, so that
 * zoompan's whole-pixel steps do not show as a shake. Returns the input arguments.
 */
async function stillInput(
  tools: FfmpegTools,
  options: SynthesizeClipOptions,
  imageFile: string,
  frame: { width: number; height: number },
  directory: string,
): Promise<string[]> {
  const { width, height } = frame;
  const still = path.join(directory, "background.png");
  const image = path.resolve(imageFile);
  await runFfmpeg(
    tools,
    [
      ...literalImageName(image),
      "-i",
      image,
      "-frames:v",
      "1",
      "-vf",
      `scale=${2 * width}:${2 * height}:force_original_aspect_ratio=increase,crop=${2 * width}:${2 * height},setsar=1`,
      "-f",
      "image2",
      "-update",
      "1",
      still,
    ],
    { signal: options.signal, stallTimeoutMs: options.stallTimeoutMs },
  );
  // One frame in: zoompan makes every frame of the clip from it.
  return ["-f", "image2", "-i", still];
}

/** What is wrong with a made clip against what was asked (size, length, audio). */
function clipProblems(
  info: MediaInfo,
  asked: { width: number; height: number; seconds: number; fps: number },
): string[] {
  const problems: string[] = [];
  if (info.width !== asked.width || info.height !== asked.height)
    problems.push(`size is ${info.width}x${info.height}, expected ${asked.width}x${asked.height}`);
  if (Math.abs(info.duration - asked.seconds) > 1 / asked.fps + 0.05)
    problems.push(`duration is ${info.duration}s, expected ${asked.seconds}s`);
  if (!info.hasAudio) problems.push("no audio stream");
  return problems;
}

/** Names with `%` must not be read as an image2 frame pattern; other names are probed normally. */
function literalImageName(file: string): string[] {
  return path.basename(file).includes("%") ? ["-f", "image2", "-pattern_type", "none"] : [];
}

const palette = [
  "0x1d3557",
  "0x264653",
  "0x6d597a",
  "0x355070",
  "0x2a9d8f",
  "0x7f5539",
  "0x3a5a40",
  "0x5e548e",
];

function colourFor(text: string): string {
  const digest = createHash("sha256").update(text).digest();
  return palette[(digest[0] ?? 0) % palette.length] ?? "0x1d3557";
}

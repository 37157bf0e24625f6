import path from "node:path";
import { audioEncoderArgs } from "../edit/video-encoder-args.js";
import { MixInputError } from "../errors/mix-input-error.js";
import { requireCapabilities } from "../locate/require-capability.js";
import type { MediaOptions } from "../options.js";
import { type MediaInfo, probe } from "../probe/probe.js";
import { createProgressTracker } from "../process/progress.js";
import { render } from "../process/render.js";
import { resolveTools, runFfmpeg } from "../process/run-ffmpeg.js";
import {
  type Loudness,
  type LoudnormReport,
  loudnessOf,
  parseLoudnormReport,
} from "./measure-loudness.js";
import { type DuckSettings, defaultDuck, type MixGraphInput, mixGraph } from "./mix-graph.js";

/** One narration on the film. */
export interface NarrationPlacement {
  /** An audio file (any format ffmpeg reads). */
  file: string;
  /** Where it starts on the film, in seconds. */
  at: number;
}

/** An EBU R128 loudness target. */
export interface LoudnessTarget {
  /** Integrated loudness in LUFS, −70 to −5 (e.g. −14 for social platforms, −23 for broadcast). */
  integrated: number;
  /** Highest true peak in dBTP, −9 to 0 (default −1.5). */
  truePeak?: number;
  /** Loudness range in LU, 1 to 20 (default 11). */
  lra?: number;
}

/** Options of {@link mixFilmAudio}. */
export interface MixFilmAudioOptions extends MediaOptions {
  /** The joined film (its picture is copied; its sound is the clips' own). */
  video: string;
  output: string;
  /** Each scene's narration and where it starts. */
  narration: readonly NarrationPlacement[];
  /** A music bed from a local file. */
  music?: {
    file: string;
    /** Gain (1 = as recorded; default 0.5). */
    volume?: number;
    /** Seconds of fade-in (default 0). */
    fadeIn?: number;
    /** Seconds of fade-out before the end (default 0). */
    fadeOut?: number;
    /** Repeat it to the film's length (default true); otherwise silence follows it. */
    loop?: boolean;
  };
  /** The clips' own sound: kept at `volume` (default 1) or dropped (a silent video has none to keep). */
  clipAudio: { keep: boolean; volume?: number };
  /** Push the music down under the voice (defaults: {@link defaultDuck}); `false` to never. */
  duck?: Partial<DuckSettings> | false;
  /** Normalise the result to a loudness target, measured first then applied (two passes). */
  loudness?: LoudnessTarget;
}

/** What {@link mixFilmAudio} made. */
export interface MixFilmAudioResult {
  output: string;
  info: MediaInfo;
  /** The mix before normalising, and what `loudnorm` made of it, when a target was given. */
  loudness?: { measured: Loudness; report: LoudnormReport };
}

/**
 * Mix a film's sound: each narration placed at its start, a music bed looped or cut to the
 * film's length, faded in and out and ducked under the voice (`sidechaincompress` keyed on
 * the narration), the clips' own sound kept at a level or dropped, the whole normalised to
 * an EBU R128 target in two passes (`loudnorm` measures, then applies its measurement,
 * linearly when the true-peak limit allows). The picture is copied; the result lasts as
 * long as the video.
 *
 * @example
 * await mixFilmAudio({
 *   video: "joined.mp4",
 *   output: "final.mp4",
 *   narration: [{ file: "scene-1.mp3", at: 0 }, { file: "scene-2.mp3", at: 5.3 }],
 *   music: { file: "bed.mp3", volume: 0.4, fadeIn: 1, fadeOut: 2 },
 *   clipAudio: { keep: true, volume: 0.2 },
 *   loudness: { integrated: -14, truePeak: -1.5 },
 * });
 */
export async function mixFilmAudio(options: MixFilmAudioOptions): Promise<MixFilmAudioResult> {
  const tools = await resolveTools(options);
  requireCapabilities(tools, ["aac"]);
  const video = path.resolve(options.video);
  const { signal } = options;
  const info = await probe(video, { tools, signal });
  const seconds = info.videoDuration ?? info.duration;
  const narration = checkNarration(options.narration, seconds);
  const music = options.music;
  const files = [...narration.map((entry) => entry.file), ...(music ? [music.file] : [])];
  const sounds = await Promise.all(files.map((file) => probe(file, { tools, signal })));
  sounds.forEach((sound, index) => {
    if (sound.hasAudio) return;
    const isMusic = index === narration.length;
    throw new MixInputError(
      isMusic ? "music.file" : "narration",
      `Expected ${files[index]} to have sound`,
      isMusic ? undefined : index,
    );
  });
  const keepClips = options.clipAudio?.keep === true && info.hasAudio;
  const graphInput: MixGraphInput = {
    seconds,
    narration: narration.map((entry, index) => ({ input: index + 1, at: entry.at })),
    ...(music ? { music: musicSettings(music, narration.length + 1) } : {}),
    ...(keepClips
      ? { clipAudio: { input: 0, volume: gain("clipAudio.volume", options.clipAudio.volume, 1) } }
      : {}),
    ...(options.duck === false ? {} : { duck: { ...defaultDuck, ...(options.duck ?? {}) } }),
  };
  if (graphInput.narration.length === 0 && !graphInput.music && !graphInput.clipAudio)
    throw new MixInputError(
      "narration",
      "Nothing to mix: give narration, music or keep the clips' sound",
    );
  const inputs = [
    ...["-i", video],
    ...files.flatMap((file, index) =>
      index === narration.length && music?.loop !== false
        ? ["-stream_loop", "-1", "-i", file]
        : ["-i", file],
    ),
  ];
  const target = options.loudness ? checkTarget(options.loudness) : undefined;
  const progress = createProgressTracker(options.onProgress, target ? 2 * seconds : seconds);
  let measured: Loudness | undefined;
  if (target) {
    const { stderr } = await runFfmpeg(
      tools,
      [
        ...inputs,
        ...["-filter_complex", mixGraph({ ...graphInput, finish: [loudnorm(target)] })],
        ...["-map", "[mix]", "-t", seconds.toFixed(6), "-f", "null", "-"],
      ],
      {
        signal,
        stallTimeoutMs: options.stallTimeoutMs,
        onCommand: options.onCommand,
        logLevel: "info",
        onProgressLine: progress.window(0, seconds),
      },
    );
    measured = loudnessOf(parseLoudnormReport(stderr));
  }
  const finish =
    target && measured && Number.isFinite(measured.integrated)
      ? [loudnorm(target, measured), "aresample=48000"]
      : [];
  const offset = target ? seconds : 0;
  let log = "";
  const rendered = await render(
    {
      tools,
      output: options.output,
      seconds,
      args: (temp) => [
        ...inputs,
        ...["-filter_complex", mixGraph({ ...graphInput, finish })],
        ...["-map", "0:v:0", "-map", "[mix]", "-c:v", "copy", ...audioEncoderArgs],
        ...["-t", seconds.toFixed(6), "-movflags", "+faststart", temp],
      ],
      expect: { duration: seconds, tolerance: 0.1, width: info.width, height: info.height },
      logLevel: finish.length > 0 ? "info" : "error",
      onLog: (stderr) => {
        log = stderr;
      },
    },
    {
      ...options,
      onProgress: (reached) => progress.reach(offset + reached.timeSeconds),
    },
  );
  progress.done();
  if (!measured || finish.length === 0) return rendered;
  return { ...rendered, loudness: { measured, report: parseLoudnormReport(log) } };
}

function checkNarration(
  narration: readonly NarrationPlacement[],
  seconds: number,
): NarrationPlacement[] {
  if (!Array.isArray(narration)) {
    throw new MixInputError("narration", "Expected `narration` to be a list of { file, at }");
  }
  return narration.map((entry, index) => {
    if (typeof entry?.file !== "string" || entry.file === "") {
      throw new MixInputError(
        "narration",
        `Expected \`narration[${index}].file\` to be a file`,
        index,
      );
    }
    if (!Number.isFinite(entry.at) || entry.at < 0 || entry.at >= seconds) {
      throw new MixInputError(
        "narration",
        `Expected \`narration[${index}].at\` to be a second within the film (0 to ${seconds.toFixed(3)}); got ${entry.at}`,
        index,
      );
    }
    return { file: path.resolve(entry.file), at: entry.at };
  });
}

function musicSettings(music: NonNullable<MixFilmAudioOptions["music"]>, input: number) {
  return {
    input,
    volume: gain("music.volume", music.volume, 0.5),
    fadeIn: gain("music.fadeIn", music.fadeIn, 0),
    fadeOut: gain("music.fadeOut", music.fadeOut, 0),
    looped: music.loop !== false,
  };
}

/** A non-negative finite number, or its default. */
function gain(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new MixInputError(option, `Expected \`${option}\` to be a number from 0; got ${value}`);
  }
  return value;
}

function checkTarget(target: LoudnessTarget): Required<LoudnessTarget> {
  const within = (option: string, value: number, least: number, most: number) => {
    if (!(Number.isFinite(value) && value >= least && value <= most)) {
      throw new MixInputError(
        `loudness.${option}`,
        `Expected \`loudness.${option}\` to be from ${least} to ${most}; got ${value}`,
      );
    }
    return value;
  };
  return {
    integrated: within("integrated", target.integrated, -70, -5),
    truePeak: within("truePeak", target.truePeak ?? -1.5, -9, 0),
    lra: within("lra", target.lra ?? 11, 1, 20),
  };
}

/**
 * The `loudnorm` filter for a target: measuring (first pass), or applying a measurement
 * (second pass, linear when it can).
 *
 * @example
 * loudnorm({ integrated: -14, truePeak: -1.5, lra: 11 }); // "loudnorm=I=-14:TP=-1.5:LRA=11:print_format=json"
 */
export function loudnorm(target: Required<LoudnessTarget>, measured?: Loudness): string {
  const base = `loudnorm=I=${target.integrated}:TP=${target.truePeak}:LRA=${target.lra}`;
  if (!measured) return `${base}:print_format=json`;
  const range = Math.max(measured.range, 0);
  return [
    base,
    `measured_I=${measured.integrated}`,
    `measured_TP=${measured.truePeak}`,
    `measured_LRA=${range}`,
    `measured_thresh=${measured.threshold}`,
    "linear=true",
    "print_format=json",
  ].join(":");
}

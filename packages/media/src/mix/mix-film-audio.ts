import path from "node:path";
import type { OutputExpectation } from "../concat/verify-output.js";
import { audioEncoderArgs } from "../edit/video-encoder-args.js";
import { MixInputError } from "../errors/mix-input-error.js";
import type { FfmpegTools } from "../locate/locate-ffmpeg.js";
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

/** What a film's sound is made of: {@link mixFilmAudio}'s and {@link mixFilmSound}'s. */
export interface FilmSoundParts {
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
  /** Push the music down under the voice (defaults: {@link defaultDuck}); `false` to never. */
  duck?: Partial<DuckSettings> | false;
  /** Normalise the result to a loudness target, measured first then applied (two passes). */
  loudness?: LoudnessTarget;
}

/** Options of {@link mixFilmAudio}. */
export interface MixFilmAudioOptions extends MediaOptions, FilmSoundParts {
  /** The joined film (its picture is copied; its sound is the clips' own). */
  video: string;
  output: string;
  /** The clips' own sound: kept at `volume` (default 1) or dropped (a silent video has none to keep). */
  clipAudio: { keep: boolean; volume?: number };
  /**
   * The film's sound already made by {@link mixFilmSound} for a picture of this video's
   * length (the clips' own sound dropped): it is copied beside the picture, not mixed again. Its `narration`, `music`, `duck` and `loudness` are then not read.
   */
  sound?: FilmSound;
}

/** Options of {@link mixFilmSound}. */
export interface MixFilmSoundOptions extends MediaOptions, FilmSoundParts {
  /** How long the film is: its picture's length (the video stream's duration, as probed). */
  seconds: number;
  /**
   * Where the sound goes: AAC in an MP4 (`.m4a`), encoded as {@link mixFilmAudio} encodes its
   * own mix, so that giving it as {@link MixFilmAudioOptions.sound} only copies it.
   */
  output: string;
}

/** A film's sound made by {@link mixFilmSound}. */
export interface FilmSound {
  output: string;
  /** The film's length it was made for. */
  seconds: number;
  /** The mix before normalising, and what `loudnorm` made of it, when a target was given. */
  loudness?: { measured: Loudness; report: LoudnormReport };
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
  if (options.sound) return withSound(tools, options, { video, info, seconds }, options.sound);
  const keepClips = options.clipAudio?.keep === true && info.hasAudio;
  const clipAudio = keepClips
    ? { input: 0, volume: gain("clipAudio.volume", options.clipAudio.volume, 1) }
    : undefined;
  const sound = await planSound(tools, options, { seconds, first: 1, clipAudio });
  return renderSound(tools, options, sound, {
    inputs: ["-i", video, ...sound.inputs],
    outputArgs: [
      ...["-map", "0:v:0", "-map", "[mix]", "-c:v", "copy", ...audioEncoderArgs],
      ...["-t", seconds.toFixed(6), "-movflags", "+faststart"],
    ],
    expect: { duration: seconds, tolerance: 0.1, width: info.width, height: info.height },
  });
}

/**
 * Make a film's sound alone, for a picture of `seconds` made elsewhere (or still being made):
 * the narration, music, ducking and loudness of {@link mixFilmAudio}, without the clips' own
 * sound, encoded as it encodes its mix. {@link mixFilmAudio} given it as `sound` then copies
 * it beside the picture: the very packets it would have made.
 *
 * @example
 * const sound = await mixFilmSound({ seconds: 13.5, output: "sound.m4a", narration, music, loudness: { integrated: -14 } });
 * await mixFilmAudio({ video: "joined.mp4", output: "mixed.mp4", narration, clipAudio: { keep: false }, sound });
 */
export async function mixFilmSound(options: MixFilmSoundOptions): Promise<FilmSound> {
  const tools = await resolveTools(options);
  requireCapabilities(tools, ["aac"]);
  const { seconds } = options;
  if (!(Number.isFinite(seconds) && seconds > 0)) {
    throw new MixInputError(
      "seconds",
      `Expected \`seconds\` to be the film's length, a number of seconds above 0; got ${seconds}`,
    );
  }
  const sound = await planSound(tools, options, { seconds, first: 0 });
  const { output, loudness } = await renderSound(tools, options, sound, {
    inputs: sound.inputs,
    outputArgs: ["-map", "[mix]", ...audioEncoderArgs, "-t", seconds.toFixed(6), "-f", "mp4"],
    expect: { duration: seconds, tolerance: 0.1, video: false },
  });
  return { output, seconds, ...(loudness ? { loudness } : {}) };
}

/**
 * A planned sound's passes: measured first when it has a loudness target, then mixed (and
 * normalised with what was measured) into the job's output; with `loudnorm`'s report.
 */
async function renderSound(
  tools: FfmpegTools,
  options: MediaOptions & { output: string },
  sound: SoundPlan,
  job: {
    /** Every input of the command line, the sound's numbered as planned. */
    inputs: readonly string[];
    /** What follows the graph: maps, codecs, length, format (the output path goes last). */
    outputArgs: readonly string[];
    expect: OutputExpectation;
  },
): Promise<MixFilmAudioResult> {
  const { seconds } = sound;
  const progress = createProgressTracker(options.onProgress, sound.passes * seconds);
  const measured = await measureSound(
    tools,
    job.inputs,
    sound,
    options,
    progress.window(0, seconds),
  );
  const offset = sound.target ? seconds : 0;
  const finish = finishOf(sound.target, measured);
  let log = "";
  const rendered = await render(
    {
      tools,
      output: options.output,
      seconds,
      args: (temp) => [
        ...job.inputs,
        ...["-filter_complex", mixGraph({ ...sound.graph, finish })],
        ...job.outputArgs,
        temp,
      ],
      expect: job.expect,
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

/** A film's sound planned: its inputs on the command line, its graph, its loudness target. */
interface SoundPlan {
  /** The sound files' inputs, numbered from the plan's `first`. */
  inputs: string[];
  graph: MixGraphInput;
  target: Required<LoudnessTarget> | undefined;
  /** Passes over the film: two with a loudness target (measure, apply), else one. */
  passes: number;
  seconds: number;
}

/**
 * The sound of a film of `seconds`: its narration and music checked and probed (each must
 * have sound), numbered as ffmpeg inputs from `first` (after a video at 0, or alone).
 */
async function planSound(
  tools: FfmpegTools,
  options: FilmSoundParts & Pick<MediaOptions, "signal">,
  at: { seconds: number; first: number; clipAudio?: MixGraphInput["clipAudio"] },
): Promise<SoundPlan> {
  const { signal } = options;
  const { seconds, first, clipAudio } = at;
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
  const graph: MixGraphInput = {
    seconds,
    narration: narration.map((entry, index) => ({ input: first + index, at: entry.at })),
    ...(music ? { music: musicSettings(music, first + narration.length) } : {}),
    ...(clipAudio ? { clipAudio } : {}),
    ...(options.duck === false ? {} : { duck: { ...defaultDuck, ...(options.duck ?? {}) } }),
  };
  if (graph.narration.length === 0 && !graph.music && !graph.clipAudio)
    throw new MixInputError(
      "narration",
      "Nothing to mix: give narration, music or keep the clips' sound",
    );
  const inputs = files.flatMap((file, index) =>
    index === narration.length && music?.loop !== false
      ? ["-stream_loop", "-1", "-i", file]
      : ["-i", file],
  );
  const target = options.loudness ? checkTarget(options.loudness) : undefined;
  return { inputs, graph, target, passes: target ? 2 : 1, seconds };
}

/** The sound's loudness before normalising (the first pass), when it has a target. */
async function measureSound(
  tools: FfmpegTools,
  inputs: readonly string[],
  sound: SoundPlan,
  options: MediaOptions,
  onProgressLine: (line: string) => void,
): Promise<Loudness | undefined> {
  if (!sound.target) return undefined;
  const { stderr } = await runFfmpeg(
    tools,
    [
      ...inputs,
      ...["-filter_complex", mixGraph({ ...sound.graph, finish: [loudnorm(sound.target)] })],
      ...["-map", "[mix]", "-t", sound.seconds.toFixed(6), "-f", "null", "-"],
    ],
    {
      signal: options.signal,
      stallTimeoutMs: options.stallTimeoutMs,
      onCommand: options.onCommand,
      logLevel: "info",
      onProgressLine,
    },
  );
  return loudnessOf(parseLoudnormReport(stderr));
}

/** The filters that normalise the mix to its target with what was measured (none without). */
function finishOf(
  target: Required<LoudnessTarget> | undefined,
  measured: Loudness | undefined,
): string[] {
  return target && measured && Number.isFinite(measured.integrated)
    ? [loudnorm(target, measured), "aresample=48000"]
    : [];
}

/** The film's picture and a sound {@link mixFilmSound} made for it, both copied. */
async function withSound(
  tools: FfmpegTools,
  options: MixFilmAudioOptions,
  film: { video: string; info: MediaInfo; seconds: number },
  sound: FilmSound,
): Promise<MixFilmAudioResult> {
  const { video, info, seconds } = film;
  if (options.clipAudio?.keep === true && info.hasAudio) {
    throw new MixInputError(
      "sound",
      "Expected `clipAudio.keep` to be false with a `sound` made ahead: it has no clips' sound in it (leave `sound` out to mix them)",
    );
  }
  if (sound.seconds.toFixed(6) !== seconds.toFixed(6)) {
    throw new MixInputError(
      "sound",
      `Expected the \`sound\` made for ${sound.seconds.toFixed(6)} s to go with a picture that long; ${video} lasts ${seconds.toFixed(6)} s (make the sound again for it)`,
    );
  }
  const rendered = await render(
    {
      tools,
      output: options.output,
      seconds,
      args: (temp) => [
        ...["-i", video, "-i", path.resolve(sound.output)],
        ...["-map", "0:v:0", "-map", "1:a:0", "-c", "copy"],
        ...["-t", seconds.toFixed(6), "-movflags", "+faststart", temp],
      ],
      expect: { duration: seconds, tolerance: 0.1, width: info.width, height: info.height },
    },
    options,
  );
  return { ...rendered, ...(sound.loudness ? { loudness: sound.loudness } : {}) };
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

function musicSettings(music: NonNullable<FilmSoundParts["music"]>, input: number) {
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

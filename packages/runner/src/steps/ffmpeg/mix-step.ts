import {
  type FilmSound,
  type FilmSoundParts,
  type KnownProbe,
  type MediaInfo,
  type MixFilmAudioOptions,
  mixFilmAudio,
  type NarrationPlacement,
} from "@reelsmith/media";
import { RunnerError } from "../../errors/runner-error.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";
import { sceneLayout } from "./scene-layout.js";

/** What the mix operation needs besides its spec: files resolved, progress, probes. */
export interface MixRun {
  video: string;
  /** The clips the video was joined from, resolved, when `clips` is given. */
  clips: string[] | undefined;
  output: string;
  /** Resolves an input file (absolute, in the run directory, or beside the pipeline). */
  inputPath: (file: unknown) => string;
  signal: AbortSignal;
  onProgress: (progress: { percent: number }) => void;
  /** Only another ffmpeg pass reads the output: lossless and fast. */
  intermediate?: boolean;
  /** Told each ffmpeg command line. */
  onCommand?: (command: { program: string; args: readonly string[] }) => void;
  probes: KnownProbe[] | undefined;
  /** The film's sound, made while the film was joined, for this very request. */
  sound?: FilmSound;
}

/** What the mix gives: the output, and its loudness when a target was given. */
export interface MixResult {
  output: string;
  loudness?: { integrated: number; true_peak: number; range: number };
}

const number = (value: unknown) =>
  value === undefined || value === null || value === "" ? undefined : Number(value);

/** Drops undefined fields (media's options are exact). */
function defined<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Where each narration starts: its own `at`, or its clip's start on the joined video.
 *
 * @example
 * narrationPlacements(["a.mp3", null, "c.mp3"], [0, 4, 8], (f) => String(f)); // a at 0, c at 8
 */
export function narrationPlacements(
  value: unknown,
  starts: readonly number[] | undefined,
  inputPath: (file: unknown) => string,
): NarrationPlacement[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    throw new RunnerError(
      "ffmpeg_mix_input",
      `mix \`narration\` must give a list (one file per scene, or { file, at }); got ${typeof value}`,
    );
  }
  if (starts && value.length !== starts.length) {
    throw new RunnerError(
      "ffmpeg_mix_count",
      `mix needs one narration per clip (null for a scene without one): got ${value.length} narrations for ${starts.length} clips`,
    );
  }
  return value.flatMap((entry: unknown, index): NarrationPlacement[] => {
    if (entry === null || entry === undefined || entry === "") return [];
    if (typeof entry === "object" && !Array.isArray(entry)) {
      const { file, at } = entry as { file?: unknown; at?: unknown };
      const seconds = Number(at);
      if (typeof file !== "string" || file === "" || !Number.isFinite(seconds) || seconds < 0) {
        throw new RunnerError(
          "ffmpeg_mix_input",
          `mix \`narration[${index}]\` must be { file, at } with a file and seconds from 0; got ${JSON.stringify(entry)}`,
        );
      }
      return [{ file: inputPath(file), at: seconds }];
    }
    if (typeof entry !== "string") {
      throw new RunnerError(
        "ffmpeg_mix_input",
        `mix \`narration[${index}]\` is ${Array.isArray(entry) ? "a list" : typeof entry}, not a file: read a field of it, e.g. \`steps.narration.outputs.*.file\``,
      );
    }
    const start = starts?.[index];
    if (start === undefined) {
      throw new RunnerError(
        "ffmpeg_mix_input",
        "mix `narration` lists files: give `clips` too (each narration starts with its clip), or write each as { file, at }",
      );
    }
    return [{ file: inputPath(entry), at: start }];
  });
}

/** What a mix's sound is made of, from where its file's clips lie on the film. */
export interface MixSoundInput {
  /** The film the sound goes with (for its clips' layout and messages). */
  video: string;
  /** What the film is, when it is not made yet (its sound made while it is). */
  videoInfo?: MediaInfo;
  /** The clips the video was joined from, resolved, when `clips` is given. */
  clips: string[] | undefined;
  inputPath: (file: unknown) => string;
  probes: KnownProbe[] | undefined;
  signal: AbortSignal;
}

/**
 * A mix step's sound as media takes it: each narration at its clip's start on the film (or
 * its own `at`), the music, ducking and loudness target the step asks for.
 * @example const parts = await mixSoundParts(spec, { video, clips, inputPath, probes, signal });
 */
export async function mixSoundParts(
  spec: FfmpegStepSpec,
  run: MixSoundInput,
): Promise<FilmSoundParts> {
  const layout = run.clips
    ? await sceneLayout({
        video: run.video,
        clips: run.clips,
        overlap: spec.transition_duration,
        what: "mix",
        probes: run.probes,
        signal: run.signal,
        ...(run.videoInfo ? { videoInfo: run.videoInfo } : {}),
      })
    : undefined;
  const narration = narrationPlacements(spec.narration, layout?.starts, run.inputPath);
  const music = spec.music;
  const duck = spec.duck;
  const loudness = spec.loudness;
  return defined({
    narration,
    music: music
      ? defined({
          file: run.inputPath(music.file),
          volume: number(music.volume),
          fadeIn: number(music.fade_in),
          fadeOut: number(music.fade_out),
          loop: music.loop,
        })
      : undefined,
    duck:
      duck === false
        ? false
        : duck
          ? defined({
              threshold: number(duck.threshold),
              ratio: number(duck.ratio),
              attack: number(duck.attack),
              release: number(duck.release),
            })
          : undefined,
    loudness: loudness
      ? defined({
          integrated: Number(loudness.integrated),
          truePeak: number(loudness.true_peak),
          lra: number(loudness.lra),
        })
      : undefined,
  });
}

/**
 * Mixes a joined film's sound: each scene's narration at its clip's start (or its own `at`),
 * a music bed ducked under it, the clips' own sound kept at a level or dropped, normalised
 * to a loudness target. The picture is copied. With `sound` (made while the film was joined,
 * for this very request), that sound is put with the picture instead of mixed again.
 *
 * @example
 * await runMix({ mix: "joined.mp4", narration: ["a.mp3", "b.mp3"], clips: ["a.mp4", "b.mp4"], output: "mixed.mp4" }, run);
 */
export async function runMix(spec: FfmpegStepSpec, run: MixRun): Promise<MixResult> {
  const parts = run.sound ? { narration: [] } : await mixSoundParts(spec, run);
  const options: MixFilmAudioOptions = defined({
    ...parts,
    video: run.video,
    output: run.output,
    clipAudio: {
      keep: spec.clip_audio?.keep ?? true,
      ...(number(spec.clip_audio?.volume) === undefined
        ? {}
        : { volume: number(spec.clip_audio?.volume) }),
    },
    sound: run.sound,
    signal: run.signal,
    onProgress: run.onProgress,
    ...(run.intermediate ? { intermediate: true } : {}),
    ...(run.onCommand ? { onCommand: run.onCommand } : {}),
  });
  const result = await mixFilmAudio(options);
  return { output: result.output, ...loudnessOutput(result.loudness) };
}

/** A mix's `loudness` output: what its normalised sound measured (`loudnorm`'s report). */
function loudnessOutput(loudness: FilmSound["loudness"]): Pick<MixResult, "loudness"> {
  const report = loudness?.report;
  if (!report) return {};
  return {
    loudness: {
      integrated: Number(report.output_i),
      true_peak: Number(report.output_tp),
      range: Number(report.output_lra),
    },
  };
}

import { rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { type FilmSound, type KnownProbe, type MediaInfo, mixFilmSound } from "@reelsmith/media";
import type { StepRunContext } from "../step-kind.js";
import type { MadeAheadStore } from "./captions-ahead.js";
import { inputList, inputPath } from "./ffmpeg-inputs.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";
import { mixSoundParts } from "./mix-step.js";
import { type SoleReader, soleReaderOf } from "./sole-reader.js";

/** A mix step's sound made while the film it goes with was joined. */
interface SoundAhead {
  /** The request it was made for, as JSON. */
  request: string;
  /** The joined film as it was written then. */
  video: { file: string; size: number; mtimeMs: number };
  sound: FilmSound;
}

/** The key of a mix's sound in a run's store: the mix's output path, absolute. */
const aheadKey = (output: string) => `mix-sound:${output}`;

function isSoundAhead(value: unknown): value is SoundAhead {
  const entry = value as Partial<SoundAhead> | undefined;
  return typeof entry?.request === "string" && !!entry.video && !!entry.sound;
}

/**
 * The mix step that alone reads the file `output` of the step running in `context` and
 * drops that file's own sound (`clip_audio: { keep: false }`): its sound needs only the
 * film's length, so it can be made while the film is joined. Else undefined.
 * @example mixReaderOf(context, "/run/joined.mp4")?.step // "mixed"
 */
export function mixReaderOf(context: StepRunContext, output: string): SoleReader | undefined {
  const reader = soleReaderOf(context, output, "mix");
  return reader?.request.clip_audio?.keep === false ? reader : undefined;
}

/** Where a mix's sound made ahead is written: hidden beside the mix's output. */
const soundBeside = (output: string) => join(dirname(output), `.${basename(output)}.sound.m4a`);

/**
 * Makes the reader's sound for a film of `seconds` (the join's planned length) while the
 * film is joined. Settles with undefined when it cannot (the reader, run as usual, then
 * mixes its sound itself and reports any error of its own).
 * @example const sound = soundAhead(reader, context, { video, seconds: 13.666667, probes, signal, onCommand });
 */
export async function soundAhead(
  reader: SoleReader,
  context: StepRunContext,
  film: {
    video: string;
    seconds: number;
    probes: (files: string[]) => KnownProbe[] | undefined;
    /** Stops making it (the run's signal, or the join's failure). */
    signal: AbortSignal;
    /** Told each ffmpeg command line (the step's own listener). */
    onCommand: (command: { program: string; args: readonly string[] }) => void;
  },
): Promise<FilmSound | undefined> {
  const { request } = reader;
  const output = soundBeside(reader.output);
  try {
    const clips =
      request.clips === undefined ? undefined : inputList(request.clips, context, "mix");
    const parts = await mixSoundParts(request, {
      video: film.video,
      videoInfo: { videoDuration: film.seconds, duration: film.seconds } as MediaInfo,
      clips,
      inputPath: (file) => inputPath(file, context),
      probes: film.probes(clips ?? []),
      signal: film.signal,
    });
    return await mixFilmSound({
      ...parts,
      seconds: film.seconds,
      output,
      signal: film.signal,
      onCommand: film.onCommand,
    });
  } catch (error) {
    await rm(output, { force: true });
    context.emit({
      type: "log",
      level: "debug",
      step: context.stepId,
      message: `the sound of "${reader.step}" is not made while joining (${error instanceof Error ? error.message : String(error)})`,
    });
    return undefined;
  }
}

/**
 * Keeps a sound made ahead for its reader in the run's `store`, when it was made for the
 * film's real length (the joined file's probe); else removes it. True when kept.
 */
export async function keepSoundAhead(
  store: MadeAheadStore | undefined,
  reader: SoleReader,
  sound: FilmSound,
  video: KnownProbe,
): Promise<boolean> {
  const seconds = video.info.videoDuration ?? video.info.duration;
  if (!store || sound.seconds.toFixed(6) !== seconds.toFixed(6)) {
    await rm(sound.output, { force: true });
    return false;
  }
  store.set(aheadKey(reader.output), {
    request: JSON.stringify(reader.request),
    video: { file: video.file, size: video.size, mtimeMs: video.mtimeMs },
    sound,
  });
  return true;
}

/**
 * The sound a mix step asks for (`request`, mixing the joined film into `output`), when it
 * was made while that film was joined, for the very same request, and neither file changed
 * since; taken once (the caller removes its file once used). Undefined otherwise, any such
 * file left beside the output removed: the step mixes itself.
 * @example const sound = await takeSoundAhead(store, spec, video, output);
 */
export async function takeSoundAhead(
  store: MadeAheadStore | undefined,
  request: FfmpegStepSpec,
  video: string,
  output: string,
): Promise<FilmSound | undefined> {
  const ahead = store?.get(aheadKey(output));
  if (!isSoundAhead(ahead)) {
    // One an earlier session made before it stopped, or a failed attempt's: of no use now.
    await rm(soundBeside(output), { force: true });
    return undefined;
  }
  store?.delete(aheadKey(output));
  const written = await stat(video).catch(() => undefined);
  const same =
    ahead.video.file === video &&
    ahead.request === JSON.stringify(request) &&
    written?.size === ahead.video.size &&
    written.mtimeMs === ahead.video.mtimeMs &&
    (await stat(ahead.sound.output).catch(() => undefined)) !== undefined;
  if (same) return ahead.sound;
  await rm(ahead.sound.output, { force: true });
  return undefined;
}

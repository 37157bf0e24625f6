import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import {
  type ConcatPlanned,
  type ConcatResult,
  concat,
  contactSheet,
  extractFrame,
  type FilmSound,
  fit,
  fitClipToDuration,
  type KnownProbe,
  probeUnlessKnown,
  reframe,
  setAudio,
  subtitles,
  thumbnail,
  trim,
} from "@reelsmith/media";
import { RunnerError } from "../../errors/runner-error.js";
import { executionExtras } from "../../executor/execution-context.js";
import type { KnownProbes } from "../../media-probes/known-probes.js";
import type { StepRunContext } from "../step-kind.js";
import {
  captionsReaderOf,
  keepMadeAhead,
  planReaderCaptions,
  takeMadeAhead,
} from "./captions-ahead.js";
import { runCaptions } from "./captions-step.js";
import { defined, frameAt, inputList, inputPath, lengthMode, numberOf } from "./ffmpeg-inputs.js";
import type { FfmpegOperation, FfmpegStepSpec } from "./ffmpeg-schema.js";
import { keepSoundAhead, mixReaderOf, soundAhead, takeSoundAhead } from "./mix-ahead.js";
import { runMix } from "./mix-step.js";
import { reframeSize } from "./reframe-size.js";
import { runWordCaptions } from "./word-captions-step.js";

/** What every media call of a step shares: the output, the signal, progress, how to encode. */
export interface MediaCommon {
  output: string;
  signal: AbortSignal;
  onProgress: (p: { percent: number }) => void;
  /** Only another ffmpeg pass reads the output: lossless and fast. */
  intermediate: boolean;
  /** Told each ffmpeg command line. */
  onCommand: (command: { program: string; args: readonly string[] }) => void;
}

/** What every operation's run gets: the step, its operation's value, what media's calls share. */
export interface OperationRun {
  spec: FfmpegStepSpec;
  operation: FfmpegOperation;
  /** The operation's own value (`spec[operation]`): its input file or files. */
  value: unknown;
  context: StepRunContext;
  /** The output path, the signal and the progress every media call takes. */
  common: MediaCommon;
  knownProbes: Pick<KnownProbes, "add" | "addFromOutputs" | "for"> | undefined;
  size: string | undefined;
}

/** What an operation made: media's result, and the outputs of its own (`srt`, `action`…). */
export interface OperationMade {
  result: { output: string; probe?: KnownProbe };
  extra?: Record<string, unknown>;
}

/**
 * `concat` (and `transition`: with a crossfade or the effect asked): the clips joined, fitted
 * to one size. When the one step that reads the film mixes a sound that drops the film's own,
 * that sound is made while the clips are joined (`mix-ahead.ts`), for the film's planned
 * length, and kept for it when the film has that length.
 */
async function concatOrTransition(given: OperationRun): Promise<OperationMade> {
  const { spec, value, context, common, knownProbes, size, operation } = given;
  const clips = inputList(value, context, operation);
  const reader = mixReaderOf(context, common.output);
  // Stopped with the run, or when the join fails: the sound is then of no use.
  const stopSound = new AbortController();
  let sound: Promise<FilmSound | undefined> | undefined;
  const onPlan = (plan: ConcatPlanned) => {
    if (!reader) return;
    if (plan.seconds === undefined) {
      context.emit({
        type: "log",
        level: "debug",
        step: context.stepId,
        message: `the sound of "${reader.step}" is not made while joining: the join could not tell its length at ${plan.rate} fps before making it`,
      });
      return;
    }
    sound = soundAhead(reader, context, {
      video: common.output,
      seconds: plan.seconds,
      probes: (files) => knownProbes?.for(files),
      signal: AbortSignal.any([context.signal, stopSound.signal]),
      onCommand: common.onCommand,
    });
  };
  let result: ConcatResult;
  try {
    result = await concat(
      clips,
      defined({
        ...common,
        probes: knownProbes?.for(clips),
        size,
        fps: numberOf(spec.fps),
        fit: spec.mode as "contain" | "cover" | undefined,
        transition:
          operation === "transition"
            ? { type: spec.effect ?? "crossfade", duration: numberOf(spec.duration) ?? 0.5 }
            : undefined,
        onPlan,
      }),
    );
  } catch (error) {
    stopSound.abort();
    await sound; // It removes what it wrote, and never rejects.
    throw error;
  }
  const made = await sound;
  if (reader && made) {
    const store = executionExtras(context)?.madeAhead;
    const kept = await keepSoundAhead(store, reader, made, result.probe);
    context.emit({
      type: "log",
      level: "debug",
      step: context.stepId,
      message: kept
        ? `the sound of "${reader.step}" was made while joining`
        : `the sound made while joining is not used by "${reader.step}": the film is not the length planned`,
    });
  }
  return { result };
}

/** `fit`: a clip fitted to a size (contain, cover) or to seconds (auto, trim, hold). */
async function fitOperation(given: OperationRun): Promise<OperationMade> {
  const { spec, value, context, common, size } = given;
  if (spec.seconds !== undefined) {
    const fitted = await fitClipToDuration(
      inputPath(value, context),
      defined({ ...common, seconds: Number(spec.seconds), mode: lengthMode(spec.mode) }),
    );
    return { result: { output: fitted.output }, extra: { action: fitted.action } };
  }
  if (!size) throw new RunnerError("ffmpeg_missing_option", "ffmpeg fit needs `size` or `seconds`");
  const result = await fit(
    inputPath(value, context),
    defined({ ...common, size, mode: spec.mode as "contain" | "cover" | undefined }),
  );
  return { result };
}

/** `trim`: a part of a clip, by start, end or duration. */
async function trimOperation(given: OperationRun): Promise<OperationMade> {
  const { spec, value, context, common } = given;
  const result = await trim(
    inputPath(value, context),
    defined({
      ...common,
      start: numberOf(spec.start),
      end: numberOf(spec.end),
      duration: numberOf(spec.duration),
    }),
  );
  return { result };
}

/** `audio`: a track added to, replacing or mixed with a clip's sound. */
async function audioOperation(given: OperationRun): Promise<OperationMade> {
  const { spec, value, context, common } = given;
  if (spec.track === undefined)
    throw new RunnerError("ffmpeg_missing_option", "ffmpeg audio needs `track` (the audio file)");
  const result = await setAudio(
    inputPath(value, context),
    defined({
      ...common,
      audio: inputPath(spec.track, context),
      mode: spec.mode as "add" | "replace" | "mix" | undefined,
      loop: spec.loop,
      fadeIn: numberOf(spec.fade_in),
      fadeOut: numberOf(spec.fade_out),
      volume: numberOf(spec.volume),
    }),
  );
  return { result };
}

/** `subtitles`: an .srt or .vtt burnt in or kept as a soft track. */
async function subtitlesOperation(given: OperationRun): Promise<OperationMade> {
  const { spec, value, context, common } = given;
  if (spec.file === undefined)
    throw new RunnerError("ffmpeg_missing_option", "ffmpeg subtitles needs `file` (.srt or .vtt)");
  const result = await subtitles(
    inputPath(value, context),
    defined({
      ...common,
      file: inputPath(spec.file, context),
      mode: spec.mode as "burn" | "soft" | undefined,
    }),
  );
  return { result };
}

/** `thumbnail`: one picture of a clip. */
async function thumbnailOperation(given: OperationRun): Promise<OperationMade> {
  const { spec, value, context, common } = given;
  const result = await thumbnail(
    inputPath(value, context),
    defined({ ...common, at: numberOf(spec.at), width: numberOf(spec.width) }),
  );
  return { result };
}

/** `contact_sheet`: one picture of many clips, labelled. */
async function contactSheetOperation(given: OperationRun): Promise<OperationMade> {
  const { spec, value, context, common, operation } = given;
  const result = await contactSheet(
    inputList(value, context, operation),
    defined({
      ...common,
      columns: numberOf(spec.columns),
      tileWidth: numberOf(spec.tile_width),
      at: numberOf(spec.at),
      labels: Array.isArray(spec.labels) ? spec.labels.map(String) : undefined,
    }),
  );
  return { result };
}

/** `frame`: the first, last or a given frame of a clip. */
async function frameOperation(given: OperationRun): Promise<OperationMade> {
  const { spec, value, context, common } = given;
  const result = await extractFrame(
    inputPath(value, context),
    defined({ ...common, at: frameAt(spec.at) }),
  );
  return { result };
}

/** `captions`: captions from the storyboard (or words), burnt in; `srt` or `ass`, and `missing` characters no font has. */
async function captionsOperation(given: OperationRun): Promise<OperationMade> {
  const { spec, value, context, common, knownProbes } = given;
  const clips =
    spec.words !== undefined && spec.clips === undefined
      ? undefined
      : inputList(spec.clips, context, "captions");
  const video = inputPath(value, context);
  const pipelineDir = executionExtras(context)?.pipelineDir ?? process.cwd();
  const run = {
    ...common,
    video,
    fonts: (spec.fonts ?? []).map((font) => resolve(pipelineDir, String(font))),
    probes: knownProbes?.for([video, ...(clips ?? [])]),
    onMissing: (characters: string[], file: string) =>
      context.emit({
        type: "log",
        level: "warn",
        step: context.stepId,
        message: `captions: no font has ${characters.join(" ")}; left out of the picture, kept in ${file} (give \`fonts:\` a font that has them)`,
      }),
  };
  if (spec.words !== undefined) {
    // Made by the pass that made its input, for this very request: taken as it is.
    const store = executionExtras(context)?.madeAhead;
    const ahead = await takeMadeAhead(store, spec, video, common.output);
    if (ahead) {
      if (ahead.missing.length > 0) run.onMissing(ahead.missing, ahead.ass);
      const result = { output: common.output, probe: ahead.probe };
      return { result, extra: { ass: ahead.ass, missing: ahead.missing } };
    }
    const { ass, missing, ...made } = await runWordCaptions(spec, { ...run, clips });
    return { result: made, extra: { ass, missing } };
  }
  const { srt, missing, ...made } = await runCaptions(spec, { ...run, clips: clips ?? [] });
  return { result: made, extra: { srt, missing } };
}

/**
 * `mix`: clips' sound mixed under the film (ducked, normalised); its `loudness`. A sound made
 * while the film was joined, for this very request, is put with the picture instead.
 */
async function mixOperation(given: OperationRun): Promise<OperationMade> {
  const { spec, value, context, common, knownProbes } = given;
  const clips = spec.clips === undefined ? undefined : inputList(spec.clips, context, "mix");
  const video = inputPath(value, context);
  const store = executionExtras(context)?.madeAhead;
  const sound = await takeSoundAhead(store, spec, video, common.output);
  try {
    const { output: mixed, loudness } = await runMix(spec, {
      ...common,
      video,
      clips,
      inputPath: (file) => inputPath(file, context),
      probes: knownProbes?.for([video, ...(clips ?? [])]),
      ...(sound ? { sound } : {}),
    });
    return { result: { output: mixed }, ...(loudness ? { extra: { loudness } } : {}) };
  } finally {
    if (sound) await rm(sound.output, { force: true });
  }
}

/**
 * `reframe`: a clip cropped or blur-padded to a size or an aspect. When the one step that
 * reads the file burns word captions into it, its file is made in the same pass (one decode,
 * one reframe) and kept for it to take (`captions-ahead.ts`).
 */
async function reframeOperation(given: OperationRun): Promise<OperationMade> {
  const { spec, value, context, common, knownProbes, size } = given;
  const video = inputPath(value, context);
  const source = await probeUnlessKnown(video, knownProbes?.for([video]), {
    signal: context.signal,
  });
  const aspect = spec.aspect === undefined ? undefined : String(spec.aspect);
  const frame = reframeSize({ size: aspect === undefined ? size : undefined, aspect, source });
  // A mode of `defaults.ffmpeg` that is not a reframe's (e.g. concat's cover) is ignored.
  const mode: "crop" | "blur-pad" | undefined =
    spec.mode === "crop" || spec.mode === "blur-pad" ? spec.mode : undefined;
  const options = defined({ ...common, ...frame, mode });
  const reader = captionsReaderOf(context, common.output);
  const plan =
    reader &&
    (await planReaderCaptions(reader, context, {
      video: common.output,
      videoInfo: { ...source, ...frame },
      probes: (files) => knownProbes?.for(files),
    }).catch((error: unknown) => {
      // Its own pass then: the captions step, run as usual, reports the error itself.
      context.emit({
        type: "log",
        level: "debug",
        step: context.stepId,
        message: `reframe: the captions of "${reader.step}" are not made in this pass (${error instanceof Error ? error.message : String(error)})`,
      });
      return undefined;
    }));
  if (!reader || !plan) return { result: await reframe(video, options) };
  context.emit({
    type: "log",
    level: "debug",
    step: context.stepId,
    message: `reframe: also burns the captions of "${reader.step}" in the same pass`,
  });
  const captioned = { ...plan.options, output: reader.output, intermediate: reader.intermediate };
  const result = await reframe(video, { ...options, captioned });
  if (result.captioned) {
    const probe = await keepMadeAhead(executionExtras(context)?.madeAhead, reader, {
      video: result.output,
      info: result.captioned.info,
      script: plan.script.text,
      missing: result.captioned.missing,
    });
    knownProbes?.add(probe);
  }
  return { result: { output: result.output } };
}

/**
 * Each ffmpeg operation's run, by the operation's name.
 * @example const made = await ffmpegOperationRuns[operation](run);
 */
export const ffmpegOperationRuns: Record<
  FfmpegOperation,
  (run: OperationRun) => Promise<OperationMade>
> = {
  concat: concatOrTransition,
  transition: concatOrTransition,
  fit: fitOperation,
  trim: trimOperation,
  audio: audioOperation,
  subtitles: subtitlesOperation,
  thumbnail: thumbnailOperation,
  contact_sheet: contactSheetOperation,
  frame: frameOperation,
  captions: captionsOperation,
  mix: mixOperation,
  reframe: reframeOperation,
};

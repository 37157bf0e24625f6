import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import {
  concat,
  contactSheet,
  extractFrame,
  FfmpegError,
  fit,
  fitClipToDuration,
  type KnownProbe,
  probeKnown,
  probeUnlessKnown,
  reframe,
  setAudio,
  subtitles,
  thumbnail,
  trim,
} from "@reelsmith/media";
import { RunnerError } from "../../errors/runner-error.js";
import { executionExtras } from "../../executor/execution-context.js";
import { probeOutput } from "../../media-probes/known-probes.js";
import type { StepRunContext } from "../step-kind.js";
import { runCaptions } from "./captions-step.js";
import { FfmpegStepError } from "./errors/ffmpeg-step-error.js";
import { ffmpegImageOperations } from "./ffmpeg-operations.js";
import { type FfmpegOperation, type FfmpegStepSpec, ffmpegOperations } from "./ffmpeg-schema.js";
import { runMix } from "./mix-step.js";
import { reframeSize } from "./reframe-size.js";
import { runWordCaptions } from "./word-captions-step.js";

/** Drops undefined fields (media's options are exact). */
function defined<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as T;
}

/** A number from a literal or an expression's value; undefined stays undefined. */
function numberOf(value: unknown): number | undefined {
  return value === undefined || value === null || value === "" ? undefined : Number(value);
}

/** Input files: absolute as given; relative ones inside the run directory, else beside the pipeline. */
function inputPath(value: unknown, context: StepRunContext): string {
  const path = String(value);
  if (isAbsolute(path)) return path;
  const inRun = join(context.runDir, path);
  if (existsSync(inRun)) return inRun;
  return resolve(executionExtras(context)?.pipelineDir ?? process.cwd(), path);
}

/** `frame`'s `at`: first, last (the default) or seconds. */
function frameAt(value: unknown): "first" | "last" | number {
  if (value === undefined || value === null || value === "" || value === "last") return "last";
  if (value === "first") return "first";
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new RunnerError(
      "ffmpeg_frame_at",
      `ffmpeg frame \`at\` must be first, last or seconds from 0; got ${JSON.stringify(value)}`,
    );
  return seconds;
}

function inputList(value: unknown, context: StepRunContext, operation: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  const files = list.filter((v) => v !== null && v !== undefined && v !== "");
  if (files.length === 0)
    throw new RunnerError("ffmpeg_no_inputs", `ffmpeg ${operation} got no input files`);
  return files.map((f) => inputPath(f, context));
}

/**
 * Runs one ffmpeg step: maps its operation (concat, transition, fit, trim, audio, subtitles,
 * thumbnail, contact_sheet, frame, captions, mix, reframe) to @reelsmith/media, reports
 * ffmpeg.progress, and probes the result. Outputs: file, probe, a video's `duration`;
 * captions also `srt` (or `ass` for word captions) and `missing` (characters no font has,
 * also told as a warning); fit to seconds `action`; mix with a target `loudness`.
 * @example await runFfmpegStep({ concat: [a, b], output: "final.mp4" }, context);
 */
export async function runFfmpegStep(
  spec: FfmpegStepSpec,
  context: StepRunContext,
): Promise<Record<string, unknown>> {
  try {
    return await runOperation(spec, context);
  } catch (error) {
    throw await withLog(error, context);
  }
}

/**
 * An ffmpeg failure as a person can act on it: its one meaningful line in the message, and
 * its command line and whole output in `logs/<step>[-<index>].ffmpeg.log` of the run.
 */
async function withLog(error: unknown, context: StepRunContext): Promise<unknown> {
  // By its marker: media may be another installed copy.
  if (!FfmpegError.isInstance(error)) return error;
  const name = `${context.stepId.replace(/[^A-Za-z0-9._-]+/g, "_")}${context.index === undefined ? "" : `-${context.index}`}.${error.program}.log`;
  const log = `logs/${name}`;
  const program = error.program;
  const text = `$ ${program} ${error.args.map(shellWord).join(" ")}\n\n${error.output}\n`;
  const written = await mkdir(join(context.runDir, "logs"), { recursive: true })
    .then(() => writeFile(join(context.runDir, log), text))
    .then(
      () => true,
      () => false,
    );
  return new FfmpegStepError(
    { line: error.line, exitCode: error.exitCode, log: written ? log : undefined, program },
    { cause: error },
  );
}

/** An argument as a shell would need it written, for the log's command line. */
function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

async function runOperation(
  spec: FfmpegStepSpec,
  context: StepRunContext,
): Promise<Record<string, unknown>> {
  const operation = ffmpegOperations.find((op) => spec[op] !== undefined) as
    | FfmpegOperation
    | undefined;
  if (!operation)
    throw new RunnerError(
      "ffmpeg_no_operation",
      `ffmpeg step needs one of ${ffmpegOperations.join(", ")}`,
    );
  const output = context.resolveOutputPath(String(spec.output));
  let lastPercent = -1;
  const common = {
    output,
    signal: context.signal,
    onProgress: (p: { percent: number }) => {
      const percent = Math.floor(p.percent);
      if (percent === lastPercent) return;
      lastPercent = percent;
      context.progress("encode", { stage: "work", percent });
    },
  };
  const value = spec[operation];
  let result: { output: string; probe?: KnownProbe };
  let extra: Record<string, unknown> = {};
  const knownProbes = executionExtras(context)?.knownProbes;
  const size = spec.size === undefined ? undefined : String(spec.size);
  switch (operation) {
    case "concat":
    case "transition": {
      const clips = inputList(value, context, operation);
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
        }),
      );
      break;
    }
    case "fit":
      if (spec.seconds !== undefined) {
        const fitted = await fitClipToDuration(
          inputPath(value, context),
          defined({ ...common, seconds: Number(spec.seconds), mode: lengthMode(spec.mode) }),
        );
        result = { output: fitted.output };
        extra = { action: fitted.action };
        break;
      }
      if (!size)
        throw new RunnerError("ffmpeg_missing_option", "ffmpeg fit needs `size` or `seconds`");
      result = await fit(
        inputPath(value, context),
        defined({ ...common, size, mode: spec.mode as "contain" | "cover" | undefined }),
      );
      break;
    case "trim":
      result = await trim(
        inputPath(value, context),
        defined({
          ...common,
          start: numberOf(spec.start),
          end: numberOf(spec.end),
          duration: numberOf(spec.duration),
        }),
      );
      break;
    case "audio":
      if (spec.track === undefined)
        throw new RunnerError(
          "ffmpeg_missing_option",
          "ffmpeg audio needs `track` (the audio file)",
        );
      result = await setAudio(
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
      break;
    case "subtitles":
      if (spec.file === undefined)
        throw new RunnerError(
          "ffmpeg_missing_option",
          "ffmpeg subtitles needs `file` (.srt or .vtt)",
        );
      result = await subtitles(
        inputPath(value, context),
        defined({
          ...common,
          file: inputPath(spec.file, context),
          mode: spec.mode as "burn" | "soft" | undefined,
        }),
      );
      break;
    case "thumbnail":
      result = await thumbnail(
        inputPath(value, context),
        defined({ ...common, at: numberOf(spec.at), width: numberOf(spec.width) }),
      );
      break;
    case "contact_sheet":
      result = await contactSheet(
        inputList(value, context, operation),
        defined({
          ...common,
          columns: numberOf(spec.columns),
          tileWidth: numberOf(spec.tile_width),
          at: numberOf(spec.at),
          labels: Array.isArray(spec.labels) ? spec.labels.map(String) : undefined,
        }),
      );
      break;
    case "frame":
      result = await extractFrame(
        inputPath(value, context),
        defined({ ...common, at: frameAt(spec.at) }),
      );
      break;
    case "captions": {
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
        const { ass, missing, ...made } = await runWordCaptions(spec, { ...run, clips });
        result = made;
        extra = { ass, missing };
      } else {
        const { srt, missing, ...made } = await runCaptions(spec, { ...run, clips: clips ?? [] });
        result = made;
        extra = { srt, missing };
      }
      break;
    }
    case "mix": {
      const clips = spec.clips === undefined ? undefined : inputList(spec.clips, context, "mix");
      const video = inputPath(value, context);
      const { output: mixed, loudness } = await runMix(spec, {
        ...common,
        video,
        clips,
        inputPath: (file) => inputPath(file, context),
        probes: knownProbes?.for([video, ...(clips ?? [])]),
      });
      result = { output: mixed };
      if (loudness) extra = { loudness };
      break;
    }
    case "reframe": {
      const video = inputPath(value, context);
      const source = await probeUnlessKnown(video, knownProbes?.for([video]), {
        signal: context.signal,
      });
      const aspect = spec.aspect === undefined ? undefined : String(spec.aspect);
      result = await reframe(
        video,
        defined({
          ...common,
          ...reframeSize({ size: aspect === undefined ? size : undefined, aspect, source }),
          // A mode of `defaults.ffmpeg` that is not a reframe's (e.g. concat's cover) is ignored.
          mode: spec.mode === "crop" || spec.mode === "blur-pad" ? spec.mode : undefined,
        }),
      );
      break;
    }
  }
  const file = result.output ?? output;
  // A verified output comes with its probe; others are probed once here (an image may not be).
  const known =
    result.probe ?? (await probeKnown(file, { signal: context.signal }).catch(() => undefined));
  if (known) knownProbes?.add(known);
  const duration = known?.info.hasVideo
    ? (known.info.videoDuration ?? known.info.duration)
    : undefined;
  return {
    file,
    ...(known === undefined ? {} : { probe: probeOutput(known) }),
    ...(duration === undefined || ffmpegImageOperations.includes(operation) ? {} : { duration }),
    ...extra,
  };
}

/** `fit`'s mode when fitting to seconds: auto, trim or hold (a size's contain/cover, from defaults, is ignored). */
function lengthMode(mode: unknown): "auto" | "trim" | "hold" | undefined {
  return mode === "auto" || mode === "trim" || mode === "hold" ? mode : undefined;
}

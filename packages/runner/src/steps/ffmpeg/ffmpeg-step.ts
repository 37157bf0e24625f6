import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import * as media from "@reelsmith/media";
import { RunnerError } from "../../errors/runner-error.js";
import { executionExtras } from "../../executor/execution-context.js";
import type { StepKind, StepRunContext } from "../step-kind.js";
import { type FfmpegOperation, type FfmpegStepSpec, ffmpegOperations } from "./ffmpeg-schema.js";
import { ffmpegDefinition } from "./index.js";

type MediaFunction = (
  input: unknown,
  options: Record<string, unknown>,
) => Promise<{ output: string }>;

/** The media function behind an operation; refuses clearly when media lacks it. */
function mediaFunction(name: string, operation: string): MediaFunction {
  const fn = (media as unknown as Record<string, unknown>)[name];
  if (typeof fn !== "function") {
    throw new RunnerError(
      "ffmpeg_operation_unavailable",
      `ffmpeg operation "${operation}" is not available: @reelsmith/media has no ${name}()`,
    );
  }
  return fn as MediaFunction;
}

function defined(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

/** Input files: absolute as given; relative ones inside the run directory, else beside the pipeline. */
function inputPath(value: unknown, context: StepRunContext): string {
  const path = String(value);
  if (isAbsolute(path)) return path;
  const inRun = join(context.runDir, path);
  if (existsSync(inRun)) return inRun;
  return resolve(executionExtras(context)?.pipelineDir ?? process.cwd(), path);
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
 * thumbnail, contact_sheet) to @reelsmith/media, reports ffmpeg.progress, and probes the result.
 * Outputs: file, probe.
 * @example await runFfmpegStep({ concat: [a, b], output: "final.mp4" }, context);
 */
export async function runFfmpegStep(
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
  const at = context.index === undefined ? {} : { index: context.index };
  let lastPercent = -1;
  const common = {
    output,
    signal: context.signal,
    onProgress: (p: { percent: number }) => {
      const percent = Math.floor(p.percent);
      if (percent === lastPercent) return;
      lastPercent = percent;
      context.emit({ type: "ffmpeg.progress", step: context.stepId, ...at, percent });
    },
  };
  const value = spec[operation];
  let result: { output: string };
  switch (operation) {
    case "concat":
    case "transition":
      result = await mediaFunction("concat", operation)(
        inputList(value, context, operation),
        defined({
          ...common,
          size: spec.size,
          fps: spec.fps,
          fit: spec.mode,
          transition:
            operation === "transition"
              ? { type: spec.effect ?? "crossfade", duration: Number(spec.duration ?? 0.5) }
              : undefined,
        }),
      );
      break;
    case "fit":
      result = await mediaFunction("fit", operation)(
        inputPath(value, context),
        defined({ ...common, size: spec.size, mode: spec.mode }),
      );
      break;
    case "trim":
      result = await mediaFunction("trim", operation)(
        inputPath(value, context),
        defined({ ...common, start: spec.start, end: spec.end, duration: spec.duration }),
      );
      break;
    case "audio":
      result = await mediaFunction("setAudio", operation)(
        inputPath(value, context),
        defined({
          ...common,
          audio: spec.track === undefined ? undefined : inputPath(spec.track, context),
          mode: spec.mode,
          loop: spec.loop,
          fadeIn: spec.fade_in,
          fadeOut: spec.fade_out,
          volume: spec.volume,
        }),
      );
      break;
    case "subtitles":
      result = await mediaFunction("subtitles", operation)(
        inputPath(value, context),
        defined({
          ...common,
          file: spec.file === undefined ? undefined : inputPath(spec.file, context),
          mode: spec.mode,
        }),
      );
      break;
    case "thumbnail":
      result = await mediaFunction("thumbnail", operation)(
        inputPath(value, context),
        defined({ ...common, at: spec.at, width: spec.width }),
      );
      break;
    case "contact_sheet":
      result = await mediaFunction("contactSheet", operation)(
        inputList(value, context, operation),
        defined({
          ...common,
          columns: spec.columns,
          tileWidth: spec.tile_width,
          at: spec.at,
          labels: spec.labels,
        }),
      );
      break;
  }
  const file = result.output ?? output;
  let probe: unknown;
  try {
    probe = await media.probe(file, { signal: context.signal });
  } catch {
    probe = undefined; // e.g. an image: the file is still the output
  }
  return { file, ...(probe === undefined ? {} : { probe }) };
}

/**
 * The `ffmpeg` step kind: definition plus `run`.
 * @example registry.set(ffmpegStep.kind, ffmpegStep);
 */
export const ffmpegStep: StepKind<FfmpegStepSpec> = { ...ffmpegDefinition, run: runFfmpegStep };

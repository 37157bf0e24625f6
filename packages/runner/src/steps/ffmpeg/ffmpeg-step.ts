import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { probeKnown } from "@reelsmith/media";
import { FfmpegError } from "@reelsmith/media/errors";
import { RunnerError } from "../../errors/runner-error.js";
import { executionExtras } from "../../executor/execution-context.js";
import { probeOutput } from "../../media-probes/known-probes.js";
import type { StepRunContext } from "../step-kind.js";
import { FfmpegStepError } from "./errors/ffmpeg-step-error.js";
import { ffmpegOperationRuns } from "./ffmpeg-operation-runs.js";
// The operations' names, not their schema (TypeBox, which a run never needs).
import {
  type FfmpegOperation,
  ffmpegImageOperations,
  ffmpegOperations,
} from "./ffmpeg-operations.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";
import { feedsOnlyFfmpeg } from "./intermediate-output.js";

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
  const extras = executionExtras(context);
  const common = {
    output,
    signal: context.signal,
    // Only another ffmpeg pass reads it: lossless and fast, the final's encode the only lossy one.
    intermediate: feedsOnlyFfmpeg(context.stepId, extras?.readersOf),
    // Each command line, for whoever follows the run closely (`--json`, events.ndjson).
    onCommand: (command: { program: string; args: readonly string[] }) =>
      context.emit({
        type: "log",
        level: "debug",
        step: context.stepId,
        message: `$ ${command.program} ${command.args.map(shellWord).join(" ")}`,
      }),
    onProgress: (p: { percent: number }) => {
      const percent = Math.floor(p.percent);
      if (percent === lastPercent) return;
      lastPercent = percent;
      context.progress("encode", { stage: "work", percent });
    },
  };
  const knownProbes = extras?.knownProbes;
  const size = spec.size === undefined ? undefined : String(spec.size);
  const { result, extra = {} } = await ffmpegOperationRuns[operation]({
    spec,
    operation,
    value: spec[operation],
    context,
    common,
    knownProbes,
    size,
  });
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

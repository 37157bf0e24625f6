import { executionExtras } from "../../executor/execution-context.js";
import type { StepRunContext } from "../step-kind.js";
import { ffmpegOperationOf } from "./ffmpeg-check.js";
import { inputPath } from "./ffmpeg-inputs.js";
import type { FfmpegOperation } from "./ffmpeg-operations.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";
import { feedsOnlyFfmpeg } from "./intermediate-output.js";

/**
 * The one step that reads a step's file, with an ffmpeg operation taking that file as its
 * input: what it will ask for (as the executor will evaluate it) and where its file goes.
 * Part of its work can then be done in the pass that makes the file, or beside it.
 */
export interface SoleReader {
  step: string;
  request: FfmpegStepSpec;
  /** The reader's output, resolved. */
  output: string;
  /** The reader's own output only feeds other ffmpeg passes (it is written losslessly). */
  intermediate: boolean;
}

/**
 * The step that alone reads the file `output` of the step running in `context`, by its
 * `operation` field (`captions: file`, `mix: file`), when the host can tell what it will ask
 * (`requestOf`); else undefined.
 * @example soleReaderOf(context, "/run/joined.mp4", "mix")?.step // "mixed"
 */
export function soleReaderOf(
  context: StepRunContext,
  output: string,
  operation: FfmpegOperation,
): SoleReader | undefined {
  const extras = executionExtras(context);
  const readersOf = extras?.readersOf;
  const requestOf = extras?.requestOf;
  if (!readersOf || !requestOf) return undefined;
  const readers = readersOf(context.stepId).filter(
    (reader) => reader.output === undefined || reader.output === "file",
  );
  const reader = readers.length === 1 ? readers[0] : undefined;
  if (!reader?.step || reader.kind !== "ffmpeg" || reader.output !== "file") return undefined;
  if (reader.field.length !== 1 || reader.field[0] !== operation) return undefined;
  const request = requestOf(reader.step, { step: context.stepId, outputs: { file: output } });
  if (!request || ffmpegOperationOf(request) !== operation) return undefined;
  if (typeof request.output !== "string" || inputPath(request[operation], context) !== output)
    return undefined;
  return {
    step: reader.step,
    request: request as FfmpegStepSpec,
    output: context.resolveOutputPath(request.output),
    intermediate: feedsOnlyFfmpeg(reader.step, readersOf),
  };
}

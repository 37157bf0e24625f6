import type { OutputReader } from "../step-kind.js";
import { ffmpegOperationOf } from "./ffmpeg-check.js";
import type { FfmpegOperation } from "./ffmpeg-operations.js";

/** Operations that always encode the picture they read anew (or draw an image from it). */
const reencodes: readonly FfmpegOperation[] = [
  "fit",
  "trim",
  "reframe",
  "captions",
  "thumbnail",
  "frame",
  "contact_sheet",
];

/** Operations whose output may carry the picture they read as it is (stream copy). */
const passesThrough: readonly FfmpegOperation[] = [
  "concat",
  "transition",
  "mix",
  "audio",
  "subtitles",
];

/** Fields of an operation that read a file's length, not its picture (`clips` of captions, mix). */
const lengthOnly: Partial<Record<FfmpegOperation, readonly string[]>> = {
  captions: ["clips"],
  mix: ["clips"],
};

/**
 * True when the step's video is read only by other ffmpeg passes that encode it anew: no
 * pipeline output, no other kind and no `for_each` takes its file, and a pass that may copy
 * the picture (a join, a mix) is itself such a step. Its output is then written losslessly,
 * so the pass that makes the final is the only lossy encode. Unknown readers: false.
 * @example feedsOnlyFfmpeg("joined", readersOf); // true when only `mixed` reads joined.mp4, and mixed only fed captions
 */
export function feedsOnlyFfmpeg(
  stepId: string,
  readersOf: ((stepId: string) => readonly OutputReader[]) | undefined,
  seen: ReadonlySet<string> = new Set(),
): boolean {
  if (!readersOf || seen.has(stepId)) return false;
  const readers = readersOf(stepId).filter(
    (reader) => reader.output === undefined || reader.output === "file",
  );
  // A file nobody reads is a result to keep.
  if (readers.length === 0) return false;
  const within = new Set([...seen, stepId]);
  return readers.every((reader) => {
    if (reader.kind !== "ffmpeg" || !reader.step || !reader.body || reader.output !== "file")
      return false;
    const operation = ffmpegOperationOf(reader.body as Record<string, unknown>);
    const field = reader.field[0];
    if (!operation || field === undefined) return false;
    if (lengthOnly[operation]?.includes(field)) return true;
    if (field !== operation) return false;
    if (reencodes.includes(operation)) return true;
    return passesThrough.includes(operation) && feedsOnlyFfmpeg(reader.step, readersOf, within);
  });
}

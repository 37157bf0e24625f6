import { defineStepKind, loadOnce } from "../define-step-kind.js";
import { arrayOf, NUMBER, objectOf, STRING, type StaticType } from "../static-types.js";
import type { LocalFileUse } from "../step-kind.js";
import { checkFfmpegStep, ffmpegOperationOf } from "./ffmpeg-check.js";
import { ffmpegImageOperations } from "./ffmpeg-operations.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";

/** Its `run` (and request check), loaded on first use. */
const ffmpegStep = loadOnce(() => import("./ffmpeg-step.js"));

export * from "./ffmpeg-check.js";
export * from "./ffmpeg-operations.js";
export type { FfmpegStepSpec } from "./ffmpeg-schema.js";

/**
 * The files an ffmpeg step reads, named literally: its videos (the operation's and a list of
 * `clips`), an audio track, a subtitles file, the fonts of captions, a mix's music and
 * narrations. Each is looked for in the run directory first (a file an earlier step wrote),
 * then beside the pipeline, as the step finds it when it runs.
 */
function ffmpegFiles(spec: FfmpegStepSpec): LocalFileUse[] {
  return readFiles(spec).map((use) => ({ ...use, orWritten: true }));
}

/** An ffmpeg step's literal input files, as {@link ffmpegFiles} lists them. */
function readFiles(spec: FfmpegStepSpec): LocalFileUse[] {
  const files: LocalFileUse[] = [];
  const operation = ffmpegOperationOf(spec as Record<string, unknown>);
  const videos = (field: string, value: unknown) => {
    if (typeof value === "string")
      files.push({ path: [field], file: value, what: "video", format: "video" });
    else if (Array.isArray(value))
      value.forEach((entry, index) => {
        if (typeof entry === "string")
          files.push({ path: [field, index], file: entry, what: "video", format: "video" });
      });
  };
  if (operation) videos(operation, (spec as Record<string, unknown>)[operation]);
  if (operation === "captions" || operation === "mix") videos("clips", spec.clips);
  if (typeof spec.track === "string")
    files.push({ path: ["track"], file: spec.track, what: "audio track", format: "audio" });
  if (typeof spec.file === "string")
    files.push({ path: ["file"], file: spec.file, what: "subtitles", format: "subtitles" });
  if (Array.isArray(spec.fonts)) {
    spec.fonts.forEach((font, index) => {
      if (typeof font === "string")
        files.push({ path: ["fonts", index], file: font, what: "font", format: "font" });
    });
  }
  if (ffmpegOperationOf(spec as Record<string, unknown>) !== "mix") return files;
  if (typeof spec.music?.file === "string")
    files.push({ path: ["music", "file"], file: spec.music.file, what: "music", format: "audio" });
  if (Array.isArray(spec.narration)) {
    spec.narration.forEach((entry, index) => {
      if (typeof entry === "string")
        files.push({ path: ["narration", index], file: entry, what: "narration", format: "audio" });
      else if (entry && typeof entry === "object" && typeof entry.file === "string")
        files.push({
          path: ["narration", index, "file"],
          file: entry.file,
          what: "narration",
          format: "audio",
        });
    });
  }
  return files;
}

/**
 * What an ffmpeg step gives: the file and its probe, a video's `duration`; captions also
 * the SRT (word captions: the ASS) and `missing`; fit to seconds the `action` taken; a mix
 * with a target its `loudness`.
 */
function ffmpegOutputType(spec: FfmpegStepSpec): StaticType {
  const operation = ffmpegOperationOf(spec as Record<string, unknown>);
  const common: Record<string, StaticType> = { file: STRING, probe: objectOf({}) };
  if (operation && !ffmpegImageOperations.includes(operation)) common.duration = NUMBER;
  if (operation === "captions")
    return objectOf({
      ...common,
      [spec.words === undefined ? "srt" : "ass"]: STRING,
      missing: arrayOf(STRING),
    });
  if (operation === "fit" && spec.seconds !== undefined)
    return objectOf({ ...common, action: STRING });
  if (operation === "mix" && spec.loudness !== undefined) {
    const loudness = objectOf({ integrated: NUMBER, true_peak: NUMBER, range: NUMBER }, true);
    return objectOf({ ...common, loudness });
  }
  return objectOf(common);
}

/**
 * The `ffmpeg` step kind: one operation on media files (join, transition, fit to a size or a
 * length, trim, audio, subtitles, thumbnail, contact sheet, a frame as a PNG, captions timed
 * to the clips or to a narration's words, a film's sound mixed, another aspect ratio) on
 * this machine. Its schema and its `run` load on
 * first use.
 *
 * @example
 * ```ts
 * ffmpegKind.queue; // "local"
 * ```
 */
export const ffmpegKind = defineStepKind<FfmpegStepSpec>({
  kind: "ffmpeg",
  schema: async () => (await import("./ffmpeg-schema.js")).FfmpegStepSchema,
  defaultsSchema: async () => (await import("./ffmpeg-schema.js")).FfmpegDefaultsSchema,
  queue: "local",
  phases: { encode: "work" },
  outputs: ffmpegOutputType,
  check: checkFfmpegStep,
  files: ffmpegFiles,
  // Its output; captions also write their SRT (word captions their ASS) beside it.
  writes: (spec) => {
    const output = String(spec.output);
    if (ffmpegOperationOf(spec as Record<string, unknown>) !== "captions") return [output];
    const stem = output.replace(/\.[^./\\]+$/, "");
    return [output, `${stem}.srt`, `${stem}.ass`];
  },
  summary: (spec) =>
    `${ffmpegOperationOf(spec as Record<string, unknown>) ?? "ffmpeg"} → ${String(spec.output ?? "")}`,
  report: { role: "media", work: "ffmpeg" },
  run: async (spec, context) => (await ffmpegStep()).runFfmpegStep(spec, context),
});

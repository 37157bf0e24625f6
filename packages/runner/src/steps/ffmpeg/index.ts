import { defineStepKind } from "../define-step-kind.js";
import { arrayOf, objectOf, STRING } from "../static-types.js";
import type { LocalFileUse } from "../step-kind.js";
import { checkFfmpegStep, ffmpegOperationOf } from "./ffmpeg-check.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";

export * from "./ffmpeg-check.js";
export * from "./ffmpeg-operations.js";
export type { FfmpegStepSpec } from "./ffmpeg-schema.js";

/**
 * The files an ffmpeg step reads from the pipeline's folder: an audio track, a subtitles
 * file, the fonts of captions.
 */
function ffmpegFiles(spec: FfmpegStepSpec): LocalFileUse[] {
  const files: LocalFileUse[] = [];
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
  return files;
}

/** What an ffmpeg step gives: the file and its probe; captions also the SRT and `missing`. */
function ffmpegOutputType(spec: FfmpegStepSpec) {
  const common = { file: STRING, probe: objectOf({}) };
  return ffmpegOperationOf(spec as Record<string, unknown>) === "captions"
    ? objectOf({ ...common, srt: STRING, missing: arrayOf(STRING) })
    : objectOf(common);
}

/**
 * The `ffmpeg` step kind: one operation on media files (join, transition, fit, trim, audio,
 * subtitles, thumbnail, contact sheet, a frame as a PNG, captions timed to the clips) on
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
  outputs: ffmpegOutputType,
  check: checkFfmpegStep,
  files: ffmpegFiles,
  summary: (spec) =>
    `${ffmpegOperationOf(spec as Record<string, unknown>) ?? "ffmpeg"} → ${String(spec.output ?? "")}`,
  report: { role: "media", work: "ffmpeg" },
  run: async (spec, context) => (await import("./ffmpeg-step.js")).runFfmpegStep(spec, context),
});

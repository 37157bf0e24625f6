import { outputPathProblem } from "../../pipeline/output-path.js";
import type { CheckContext } from "../step-kind.js";
import { checkCaptionsStep } from "./captions-check.js";
import { checkListValue } from "./check-list-value.js";
import {
  type FfmpegOperation,
  ffmpegImageOperations,
  ffmpegListOperations,
  ffmpegModes,
  ffmpegOperationOptions,
  ffmpegOperations,
} from "./ffmpeg-operations.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";
import { checkFitStep, checkMixStep, checkReframeStep } from "./film-check.js";

const IMAGE_OUTPUT = /\.(png|jpe?g|webp)$/i;
const VIDEO_OUTPUT = /\.(mp4|mov|mkv|webm|m4v)$/i;

/** The operation an ffmpeg step body selects, when it has exactly one. */
export function ffmpegOperationOf(spec: Record<string, unknown>): FfmpegOperation | undefined {
  const present = ffmpegOperations.filter((operation) => spec[operation] !== undefined);
  return present.length === 1 ? present[0] : undefined;
}

/**
 * Static checks of an ffmpeg step: options that apply to the chosen operation, modes,
 * required options, literal trims, sizes and narrations, and an output inside the run
 * directory.
 *
 * @example
 * ```ts
 * checkFfmpegStep({ trim: "a.mp4", columns: 3, output: "b.mp4" }, context); // reports ["columns"]
 * ```
 */
export function checkFfmpegStep(spec: FfmpegStepSpec, context: CheckContext): void {
  const body = spec as Record<string, unknown>;
  const problem = outputPathProblem(spec.output);
  if (problem) context.report(["output"], problem, { code: "output_path_escapes" });
  const operation = ffmpegOperationOf(body);
  if (!operation) return; // the schema reports it
  const defaults = context.defaults.ffmpeg ?? {};
  const allowed = new Set<string>([
    ...ffmpegOperations,
    "output",
    ...ffmpegOperationOptions[operation],
  ]);
  for (const key of Object.keys(body)) {
    if (allowed.has(key) || (Object.hasOwn(defaults, key) && defaults[key] === body[key])) continue;
    context.report([key], `\`${key}\` does not apply to the \`${operation}\` operation`, {
      code: "ffmpeg_option_not_applicable",
      hint: `${operation} takes: ${ffmpegOperationOptions[operation].join(", ") || "no options"}`,
    });
  }
  if (ffmpegListOperations.includes(operation)) {
    checkListValue(body, operation, `${operation} takes a list of files`, context);
  }
  const modes = ffmpegModes[operation];
  // fit and reframe ignore a mode of `defaults.ffmpeg` that is not theirs (e.g. concat's cover).
  const inherited =
    (operation === "fit" || operation === "reframe") &&
    Object.hasOwn(defaults, "mode") &&
    defaults.mode === spec.mode;
  if (spec.mode !== undefined && modes && !modes.includes(spec.mode) && !inherited) {
    context.report(
      ["mode"],
      `mode \`${spec.mode}\` does not apply to ${operation}; use ${modes.join(" or ")}`,
      {
        code: "ffmpeg_mode",
      },
    );
  }
  if (operation === "fit") checkFitStep(spec, context);
  if (operation === "mix") checkMixStep(spec, context);
  if (operation === "reframe") checkReframeStep(spec, context);
  if (operation === "audio" && spec.track === undefined) {
    context.report([], "audio needs `track`: the audio file to add", {
      code: "ffmpeg_missing_option",
    });
  }
  if (operation === "subtitles" && spec.file === undefined) {
    context.report([], "subtitles needs `file`: the .srt or .vtt file", {
      code: "ffmpeg_missing_option",
    });
  }
  if (operation === "trim") {
    if (spec.start === undefined && spec.end === undefined && spec.duration === undefined) {
      context.report([], "trim needs `start`, `end` or `duration`", {
        code: "ffmpeg_missing_option",
      });
    }
    if (typeof spec.start === "number" && typeof spec.end === "number" && spec.end <= spec.start) {
      context.report(["end"], `end (${spec.end}) must be after start (${spec.start})`, {
        code: "ffmpeg_trim_range",
      });
    }
  }
  if (operation === "transition" && Array.isArray(spec.transition) && spec.transition.length < 2) {
    context.report(["transition"], "a transition joins at least two clips", {
      code: "ffmpeg_transition_clips",
    });
  }
  if ((spec.at === "first" || spec.at === "last") && operation !== "frame") {
    context.report(
      ["at"],
      `\`at: ${spec.at}\` only applies to \`frame\`; ${operation} takes seconds`,
      {
        code: "ffmpeg_at",
      },
    );
  }
  if (operation === "captions") checkCaptionsStep(spec, context);
  // The extension is known unless the path ends with an expression.
  if (operation === "frame" && !/\}\}\s*$/.test(spec.output) && !/\.png$/i.test(spec.output)) {
    context.report(["output"], `frame writes a PNG; \`${spec.output}\` is not a .png file`, {
      code: "ffmpeg_output_extension",
      hint: "use .png (lossless, at the clip's size); for a JPEG or WebP use `thumbnail`",
    });
  } else if (context.isLiteral(spec.output)) {
    const wantsImage = ffmpegImageOperations.includes(operation);
    if (wantsImage ? !IMAGE_OUTPUT.test(spec.output) : !VIDEO_OUTPUT.test(spec.output)) {
      context.report(
        ["output"],
        `${operation} writes ${wantsImage ? "an image" : "a video"}; \`${spec.output}\` has an unexpected extension`,
        {
          severity: "warning",
          code: "ffmpeg_output_extension",
          hint: wantsImage ? "use .png or .jpg" : "use .mp4",
        },
      );
    }
  }
}

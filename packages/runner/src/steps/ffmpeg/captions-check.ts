import colorString from "color-string";
import type { CheckContext } from "../step-kind.js";
import { checkListValue } from "./check-list-value.js";
import { wordCaptionStyleFields } from "./ffmpeg-operations.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";

/** True unless `style` comes as a whole from `defaults.ffmpeg` (shared by text and word captions). */
function ownStyle(context: CheckContext, spec: FfmpegStepSpec): boolean {
  const defaults = context.defaults.ffmpeg ?? {};
  return !(Object.hasOwn(defaults, "style") && defaults.style === spec.style);
}

/**
 * Why a caption colour cannot be used, or undefined when it can (CSS-like: `#rrggbb`,
 * `#rgb`, `#rrggbbaa`, `rgb(…)`, `rgba(…)`, a name: what the captions are drawn with).
 *
 * @example
 * ```ts
 * captionColourProblem("#ffcc00"); // undefined
 * captionColourProblem("blurple"); // "`blurple` is not a colour"
 * ```
 */
export function captionColourProblem(colour: string): string | undefined {
  return colorString.get.rgb(colour.trim()) ? undefined : `\`${colour}\` is not a colour`;
}

/**
 * Static checks of a `captions` operation: `texts` and `clips` given and lists (of the same
 * length when both are written out), or `words`; the word captions' style fields only with
 * `words`; and literal colours that are colours.
 *
 * @example
 * ```ts
 * checkCaptionsStep({ captions: "final.mp4", texts: ["a"], output: "c.mp4" }, context); // needs `clips`
 * ```
 */
export function checkCaptionsStep(spec: FfmpegStepSpec, context: CheckContext): void {
  const body = spec as Record<string, unknown>;
  if (spec.texts !== undefined && spec.words !== undefined) {
    context.report(
      ["words"],
      "captions takes `texts` (one caption per clip) or `words` (word timings), not both",
      {
        code: "ffmpeg_captions_both",
      },
    );
  }
  const missing =
    spec.words !== undefined
      ? []
      : (["texts", "clips"] as const).filter((field) => spec[field] === undefined);
  if (missing.length > 0) {
    context.report(
      [],
      `captions needs ${missing.map((field) => `\`${field}\``).join(" and ")}: one text per clip, and the clips the video was joined from (each caption lasts its clip)`,
      {
        code: "ffmpeg_missing_option",
        hint: `e.g. texts: \${{ steps.storyboard.outputs.json.scenes.*.description }} and clips: \${{ steps.clips.outputs.*.file }}; or words: \${{ steps.narration.outputs.*.words }}`,
      },
    );
  }
  checkListValue(body, "words", "captions takes a list of word timings", context);
  if (spec.words === undefined) {
    for (const field of wordCaptionStyleFields) {
      if (spec.style?.[field] === undefined || !ownStyle(context, spec)) continue;
      context.report(["style", field], `\`style.${field}\` applies to word captions (\`words:\`)`, {
        code: "ffmpeg_option_not_applicable",
        hint: `give \`words\` (e.g. \${{ steps.narration.outputs.*.words }}), or leave it out`,
      });
    }
  }
  if (Array.isArray(spec.words) && Array.isArray(spec.clips)) {
    const perScene = spec.words.every((entry) => Array.isArray(entry) || entry === null);
    if (perScene && spec.words.length !== spec.clips.length) {
      context.report(
        ["words"],
        `captions needs one list of words per clip: ${spec.words.length} ${spec.words.length === 1 ? "list" : "lists"} for ${spec.clips.length} clips`,
        { code: "ffmpeg_captions_count" },
      );
    }
  }
  checkListValue(body, "texts", "captions takes a list of texts", context);
  checkListValue(body, "clips", "captions takes a list of clips", context);
  if (
    Array.isArray(spec.texts) &&
    Array.isArray(spec.clips) &&
    spec.texts.length !== spec.clips.length
  ) {
    context.report(
      ["texts"],
      `captions needs one text per clip: ${spec.texts.length} texts for ${spec.clips.length} clips`,
      { code: "ffmpeg_captions_count" },
    );
  }
  for (const field of ["color", "outline_color", "highlight_color"] as const) {
    const colour = spec.style?.[field];
    if (typeof colour !== "string" || !context.isLiteral(colour)) continue;
    const problem = captionColourProblem(colour);
    if (problem) {
      context.report(["style", field], problem, {
        code: "ffmpeg_caption_colour",
        hint: "use #rrggbb, #rgb, #rrggbbaa, rgb(…)/rgba(…) or a CSS name such as white or black",
      });
    }
  }
}

import type { CheckContext } from "../step-kind.js";
import { checkListValue } from "./check-list-value.js";
import { fitLengthModes, fitSizeModes } from "./ffmpeg-operations.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";

// Static checks of the operations that make a narrated film: fit to a length, mix, reframe.

/** True when the step writes `field` itself (not only inherits it from `defaults.ffmpeg`). */
function ownField(spec: FfmpegStepSpec, field: string, context: CheckContext): boolean {
  const body = spec as Record<string, unknown>;
  const defaults = context.defaults.ffmpeg ?? {};
  return (
    body[field] !== undefined &&
    !(Object.hasOwn(defaults, field) && defaults[field] === body[field])
  );
}

/**
 * `fit`: a `size` (contain|cover) or `seconds` (auto|trim|hold), not both, with a mode that
 * belongs to the one given.
 *
 * @example
 * ```ts
 * checkFitStep({ fit: "a.mp4", seconds: 4, mode: "cover", output: "b.mp4" }, context); // reports ["mode"]
 * ```
 */
export function checkFitStep(spec: FfmpegStepSpec, context: CheckContext): void {
  if (spec.seconds === undefined && spec.size === undefined) {
    context.report(
      [],
      "fit needs `size` (a frame size, here or in `defaults.ffmpeg.size`) or `seconds` (a length)",
      { code: "ffmpeg_missing_option" },
    );
    return;
  }
  const byLength = spec.seconds !== undefined;
  if (byLength && ownField(spec, "size", context)) {
    context.report(["size"], "fit takes `size` or `seconds`, not both", {
      code: "ffmpeg_fit_both",
      hint: "fit to a size in one step and to a length in another",
    });
  }
  const modes: readonly string[] = byLength ? fitLengthModes : fitSizeModes;
  // A size's mode inherited from defaults does not apply to a length (it is ignored).
  if (spec.mode === undefined || modes.includes(spec.mode)) return;
  if (byLength && !ownField(spec, "mode", context)) return;
  context.report(
    ["mode"],
    `fit to ${byLength ? "seconds" : "a size"} takes mode ${modes.join(", ")}; not \`${spec.mode}\``,
    { code: "ffmpeg_mode" },
  );
}

/**
 * `reframe`: `size` or `aspect` (not both), a literal size in even pixels.
 *
 * @example
 * ```ts
 * checkReframeStep({ reframe: "a.mp4", size: "1081x1920", output: "b.mp4" }, context); // reports ["size"]
 * ```
 */
export function checkReframeStep(spec: FfmpegStepSpec, context: CheckContext): void {
  if (spec.size === undefined && spec.aspect === undefined) {
    context.report([], 'reframe needs `size` (e.g. 1080x1920) or `aspect` (e.g. "9:16")', {
      code: "ffmpeg_missing_option",
    });
    return;
  }
  if (
    typeof spec.aspect === "string" &&
    context.isLiteral(spec.aspect) &&
    !/^[1-9][0-9]{0,3}:[1-9][0-9]{0,3}$/.test(spec.aspect)
  ) {
    context.report(
      ["aspect"],
      `\`${spec.aspect}\` is not an aspect ratio: write W:H, e.g. "9:16"`,
      {
        code: "ffmpeg_reframe_aspect",
        hint: 'quote it ("9:16"): 9:16 unquoted can read as a number in older YAML',
      },
    );
  }
  if (spec.aspect !== undefined && ownField(spec, "size", context)) {
    context.report(["size"], "reframe takes `size` or `aspect`, not both", {
      code: "ffmpeg_reframe_both",
    });
  }
  if (spec.aspect === undefined && typeof spec.size === "string" && context.isLiteral(spec.size)) {
    const [width, height] = spec.size.split("x").map(Number);
    if ((width ?? 0) % 2 !== 0 || (height ?? 0) % 2 !== 0) {
      context.report(
        ["size"],
        `reframe needs even numbers of pixels (H.264 4:2:0); \`${spec.size}\` has an odd side`,
        { code: "ffmpeg_reframe_size", hint: "e.g. 1080x1920 or 720x1280" },
      );
    }
  }
}

/**
 * `mix`: something to mix; narration files placed by `clips` (or written `{ file, at }`),
 * one per clip when both are written out.
 *
 * @example
 * ```ts
 * checkMixStep({ mix: "a.mp4", narration: ["n.mp3"], output: "b.mp4" }, context); // needs `clips`
 * ```
 */
export function checkMixStep(spec: FfmpegStepSpec, context: CheckContext): void {
  const body = spec as Record<string, unknown>;
  checkListValue(body, "narration", "mix takes a list of narrations", context);
  checkListValue(body, "clips", "mix takes a list of clips", context);
  const keepsClips = spec.clip_audio?.keep !== false;
  if (spec.narration === undefined && spec.music === undefined && !keepsClips) {
    context.report([], "mix has nothing to mix: give `narration`, `music`, or keep `clip_audio`", {
      code: "ffmpeg_missing_option",
    });
  }
  const narration = spec.narration;
  if (Array.isArray(narration)) {
    const files = narration.filter((entry) => typeof entry === "string");
    if (files.length > 0 && spec.clips === undefined) {
      const index = narration.findIndex((entry) => typeof entry === "string");
      context.report(
        ["narration", index],
        "a narration given as a file starts with its clip: give `clips` (the clips the film was joined from), or write it as { file, at }",
        {
          code: "ffmpeg_missing_option",
          hint: `e.g. clips: \${{ steps.clips.outputs.*.file }}`,
        },
      );
    }
    if (Array.isArray(spec.clips) && narration.length !== spec.clips.length) {
      context.report(
        ["narration"],
        `mix needs one narration per clip (null for a scene without one): ${narration.length} narrations for ${spec.clips.length} clips`,
        { code: "ffmpeg_mix_count" },
      );
    }
  }
  if (ownField(spec, "transition_duration", context) && spec.clips === undefined) {
    context.report(["transition_duration"], "`transition_duration` needs `clips` (it times them)", {
      code: "ffmpeg_missing_option",
    });
  }
}

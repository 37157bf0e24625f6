import { type Static, Type } from "@sinclair/typebox";
import { OutputPath, orExpression, SizeString } from "../../pipeline/schema-helpers.js";
import { ffmpegModes, ffmpegOperations } from "./ffmpeg-operations.js";

export {
  type FfmpegOperation,
  ffmpegModes,
  ffmpegOperationOptions,
  ffmpegOperations,
  ffmpegOutputs,
} from "./ffmpeg-operations.js";

const Files = orExpression(Type.Array(Type.String(), { minItems: 1 }), {
  description: `A list of files, or an expression giving one (e.g. \`\${{ steps.clips.outputs.*.file }}\`).`,
});
const File = Type.String({ minLength: 1, description: "An input file (or an expression)." });
const Seconds = orExpression(Type.Number({ minimum: 0 }));

/** Options shared by the ffmpeg operations (also the shape of `defaults.ffmpeg`). */
export const ffmpegOptionProperties = {
  size: Type.Optional(orExpression(SizeString)),
  fps: Type.Optional(orExpression(Type.Number({ exclusiveMinimum: 0, maximum: 240 }))),
  mode: Type.Optional(
    Type.Union(
      [...new Set(Object.values(ffmpegModes).flat())].map((mode) => Type.Literal(mode)),
      {
        description:
          "concat/transition/fit: contain|cover; audio: add|replace|mix; subtitles: burn|soft.",
      },
    ),
  ),
  effect: Type.Optional(
    Type.Union([Type.Literal("crossfade"), Type.Literal("fade")], {
      description: "transition: the effect.",
    }),
  ),
  start: Type.Optional(Seconds),
  end: Type.Optional(Seconds),
  duration: Type.Optional(Seconds),
  track: Type.Optional(Type.String({ minLength: 1, description: "audio: the audio file." })),
  loop: Type.Optional(Type.Boolean()),
  fade_in: Type.Optional(Seconds),
  fade_out: Type.Optional(Seconds),
  volume: Type.Optional(orExpression(Type.Number({ minimum: 0, maximum: 10 }))),
  file: Type.Optional(Type.String({ minLength: 1, description: "subtitles: the .srt/.vtt file." })),
  at: Type.Optional(Seconds),
  width: Type.Optional(orExpression(Type.Integer({ minimum: 16, maximum: 8192 }))),
  columns: Type.Optional(orExpression(Type.Integer({ minimum: 1, maximum: 64 }))),
  tile_width: Type.Optional(orExpression(Type.Integer({ minimum: 16, maximum: 4096 }))),
  labels: Type.Optional(orExpression(Type.Array(Type.String()))),
};

/**
 * Body of an `ffmpeg:` step: one operation key, its options, and `output`.
 *
 * @example
 * ```yaml
 * ffmpeg: { concat: "${{ steps.clips.outputs.*.file }}", output: final.mp4 }
 * ```
 */
export const FfmpegStepSchema = Type.Object(
  {
    concat: Type.Optional(Files),
    transition: Type.Optional(Files),
    fit: Type.Optional(File),
    trim: Type.Optional(File),
    audio: Type.Optional(File),
    subtitles: Type.Optional(File),
    thumbnail: Type.Optional(File),
    contact_sheet: Type.Optional(Files),
    ...ffmpegOptionProperties,
    output: OutputPath,
  },
  {
    additionalProperties: false,
    oneOf: ffmpegOperations.map((operation) => ({ required: [operation] })),
    // Names the keys of `oneOf` in the checker's message ("has 2 operations").
    "x-exactly-one": "operation",
    description: `Edit media with one operation (${ffmpegOperations.join(", ")}). Outputs: file, probe.`,
  },
);

/** An ffmpeg step body as written in the pipeline. */
export type FfmpegStepSpec = Static<typeof FfmpegStepSchema>;

/** What `defaults.<kind>` may hold: any of the body's own fields, each on its own. */
export const FfmpegDefaultsSchema = Type.Partial(
  Type.Object(ffmpegOptionProperties, { additionalProperties: false }),
);

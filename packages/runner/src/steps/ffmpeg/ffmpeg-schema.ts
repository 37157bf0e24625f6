import { type Static, Type } from "@sinclair/typebox";
import {
  ExpressionString,
  OutputPath,
  orExpression,
  SizeString,
} from "../../pipeline/schema-helpers.js";
import {
  captionPositions,
  ffmpegModes,
  ffmpegOperations,
  frameEnds,
  wordCaptionModes,
  wordCaptionPresets,
} from "./ffmpeg-operations.js";
import {
  Aspect,
  ClipAudio,
  Duck,
  FitSeconds,
  LoudnessTarget,
  Music,
  NarrationList,
  WordLists,
} from "./film-schema.js";

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
const Colour = Type.String({
  minLength: 1,
  description: "A CSS colour: #rrggbb, #rgb, #rrggbbaa, rgb(…)/rgba(…) or a name (white, black…).",
});

/** How burnt-in captions look; sizes are pixels of the video. */
const CaptionStyle = Type.Object(
  {
    font_size: Type.Optional(
      orExpression(Type.Number({ minimum: 1, maximum: 1000 }), {
        description: "Text height in pixels (default 6 % of the video's height).",
      }),
    ),
    color: Type.Optional(Colour),
    outline: Type.Optional(
      orExpression(Type.Number({ minimum: 0, maximum: 100 }), {
        description: "Outline thickness in pixels (0: none; default 1/16 of the font size).",
      }),
    ),
    outline_color: Type.Optional(Colour),
    position: Type.Optional(
      Type.Union(
        captionPositions.map((position) => Type.Literal(position)),
        { description: "Where the captions sit, centred (default bottom)." },
      ),
    ),
    margin: Type.Optional(
      orExpression(Type.Number({ minimum: 0, maximum: 10000 }), {
        description: "Pixels from that edge (default 5 % of the height).",
      }),
    ),
    max_line_length: Type.Optional(
      orExpression(Type.Integer({ minimum: 1, maximum: 1000 }), {
        description: "Columns per line before wrapping (default 42; CJK and emoji count two).",
      }),
    ),
    bold: Type.Optional(Type.Boolean()),
    preset: Type.Optional(
      Type.Union(
        wordCaptionPresets.map((preset) => Type.Literal(preset)),
        {
          description:
            "Word captions: social (big centred words, the default) or subtitle (bottom lines).",
        },
      ),
    ),
    mode: Type.Optional(
      Type.Union(
        wordCaptionModes.map((mode) => Type.Literal(mode)),
        {
          description:
            "Word captions: highlight (the word being spoken coloured, the default) or pop (words appear as spoken).",
        },
      ),
    ),
    highlight_color: Type.Optional(Colour),
  },
  {
    additionalProperties: false,
    description:
      "captions: how they look (word captions: the preset's look, these fields override it).",
  },
);

/** Options shared by the ffmpeg operations (also the shape of `defaults.ffmpeg`). */
export const ffmpegOptionProperties = {
  size: Type.Optional(orExpression(SizeString)),
  fps: Type.Optional(orExpression(Type.Number({ exclusiveMinimum: 0, maximum: 240 }))),
  mode: Type.Optional(
    Type.Union(
      [...new Set(Object.values(ffmpegModes).flat())].map((mode) => Type.Literal(mode)),
      {
        description:
          "concat/transition/fit to a size: contain|cover; fit to seconds: auto|trim|hold; audio: add|replace|mix; subtitles: burn|soft; reframe: crop|blur-pad.",
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
  at: Type.Optional(
    Type.Union(
      [...frameEnds.map((end) => Type.Literal(end)), Type.Number({ minimum: 0 }), ExpressionString],
      {
        description:
          "thumbnail, contact_sheet: seconds into the clip; frame: first, last (default) or seconds.",
      },
    ),
  ),
  width: Type.Optional(orExpression(Type.Integer({ minimum: 16, maximum: 8192 }))),
  columns: Type.Optional(orExpression(Type.Integer({ minimum: 1, maximum: 64 }))),
  tile_width: Type.Optional(orExpression(Type.Integer({ minimum: 16, maximum: 4096 }))),
  labels: Type.Optional(orExpression(Type.Array(Type.String()))),
  texts: Type.Optional(
    orExpression(Type.Array(Type.String(), { minItems: 1 }), {
      description: "captions: one caption per clip, in order (an empty one leaves its clip bare).",
    }),
  ),
  clips: Type.Optional(
    orExpression(Type.Array(Type.String(), { minItems: 1 }), {
      description:
        "captions, mix: the clips the video was joined from, in order; each caption lasts its clip, each narration starts with its clip.",
    }),
  ),
  transition_duration: Type.Optional(
    orExpression(Type.Number({ minimum: 0, maximum: 60 }), {
      description:
        "captions, mix: seconds each join overlaps, when the clips were joined with `transition` (its `duration`).",
    }),
  ),
  words: Type.Optional(WordLists),
  seconds: Type.Optional(FitSeconds),
  aspect: Type.Optional(Aspect),
  narration: Type.Optional(NarrationList),
  music: Type.Optional(Music),
  clip_audio: Type.Optional(ClipAudio),
  duck: Type.Optional(Duck),
  loudness: Type.Optional(LoudnessTarget),
  style: Type.Optional(CaptionStyle),
  fonts: Type.Optional(
    Type.Array(Type.String({ minLength: 1 }), {
      description:
        "captions: font files (.ttf, .otf, .ttc) tried before the bundled ones, e.g. for Korean.",
    }),
  ),
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
    frame: Type.Optional(File),
    captions: Type.Optional(File),
    mix: Type.Optional(File),
    reframe: Type.Optional(File),
    ...ffmpegOptionProperties,
    output: OutputPath,
  },
  {
    additionalProperties: false,
    oneOf: ffmpegOperations.map((operation) => ({ required: [operation] })),
    // Names the keys of `oneOf` in the checker's message ("has 2 operations").
    "x-exactly-one": "operation",
    description: `Edit media with one operation (${ffmpegOperations.join(", ")}). Outputs: file, probe; a video's duration (captions: also srt or ass, and missing; fit to seconds: action; mix with loudness: loudness).`,
  },
);

/** An ffmpeg step body as written in the pipeline. */
export type FfmpegStepSpec = Static<typeof FfmpegStepSchema>;

/** What `defaults.<kind>` may hold: any of the body's own fields, each on its own. */
export const FfmpegDefaultsSchema = Type.Partial(
  Type.Object(ffmpegOptionProperties, { additionalProperties: false }),
);

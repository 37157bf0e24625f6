import { Type } from "@sinclair/typebox";
import { orExpression } from "../../pipeline/schema-helpers.js";

// The body fields of the operations that make a narrated film (`mix`, `fit` by length,
// `reframe`, word `captions`), apart from ffmpeg-schema.ts to keep it readable.

const NonNegative = orExpression(Type.Number({ minimum: 0 }));

/** One narration on the film: a file (starting at its scene, from `clips`) or `{ file, at }`. */
const Narration = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Null(),
  Type.Object(
    {
      file: Type.String({ minLength: 1, description: "An audio file (or an expression)." }),
      at: orExpression(Type.Number({ minimum: 0 }), {
        description: "Seconds into the film where it starts.",
      }),
    },
    { additionalProperties: false },
  ),
]);

/** `mix`'s `narration`: a list (or an expression giving one). */
export const NarrationList = orExpression(Type.Array(Narration, { minItems: 1 }), {
  description:
    "mix: one narration per scene, in order (a file starts at its clip's start: give `clips`; null: none), or `{ file, at }` with its start in seconds.",
});

/** `mix`'s music bed. */
export const Music = Type.Object(
  {
    file: Type.String({ minLength: 1, description: "A local audio file (or an expression)." }),
    volume: Type.Optional(
      orExpression(Type.Number({ minimum: 0, maximum: 10 }), {
        description: "Gain (1: as recorded; default 0.5).",
      }),
    ),
    fade_in: Type.Optional(NonNegative),
    fade_out: Type.Optional(NonNegative),
    loop: Type.Optional(
      Type.Boolean({ description: "Repeat it to the film's length (default true)." }),
    ),
  },
  { additionalProperties: false, description: "mix: a music bed, ducked under the narration." },
);

/** `mix`'s clips' own sound. */
export const ClipAudio = Type.Object(
  {
    keep: Type.Boolean({ description: "Keep the clips' own sound (false: drop it)." }),
    volume: Type.Optional(
      orExpression(Type.Number({ minimum: 0, maximum: 10 }), {
        description: "Its gain when kept (default 1).",
      }),
    ),
  },
  {
    additionalProperties: false,
    description: "mix: the joined film's own sound (default: kept at 1).",
  },
);

/** `mix`'s ducking: `sidechaincompress` keyed on the narration, or `false`. */
export const Duck = Type.Union([
  Type.Literal(false),
  Type.Object(
    {
      threshold: Type.Optional(
        orExpression(Type.Number({ minimum: 0.001, maximum: 1 }), {
          description: "Voice level (linear, 0.001..1) above which the music goes down (0.02).",
        }),
      ),
      ratio: Type.Optional(
        orExpression(Type.Number({ minimum: 1, maximum: 20 }), {
          description: "How hard the music goes down (10).",
        }),
      ),
      attack: Type.Optional(
        orExpression(Type.Number({ minimum: 0.01, maximum: 2000 }), {
          description: "Milliseconds to go down once the voice starts (20).",
        }),
      ),
      release: Type.Optional(
        orExpression(Type.Number({ minimum: 0.01, maximum: 9000 }), {
          description: "Milliseconds to come back once the voice stops (300).",
        }),
      ),
    },
    { additionalProperties: false },
  ),
]);

/** `mix`'s EBU R128 loudness target. */
export const LoudnessTarget = Type.Object(
  {
    integrated: orExpression(Type.Number({ minimum: -70, maximum: -5 }), {
      description: "Integrated loudness in LUFS (-14 for social platforms, -23 for broadcast).",
    }),
    true_peak: Type.Optional(
      orExpression(Type.Number({ minimum: -9, maximum: 0 }), {
        description: "Highest true peak in dBTP (default -1.5).",
      }),
    ),
    lra: Type.Optional(
      orExpression(Type.Number({ minimum: 1, maximum: 20 }), {
        description: "Loudness range in LU (default 11).",
      }),
    ),
  },
  { additionalProperties: false, description: "mix: normalise to this loudness (two passes)." },
);

/** A word and when it is said: `{ word, start, end }`. */
const Word = Type.Object(
  { word: Type.String(), start: Type.Number({ minimum: 0 }), end: Type.Number({ minimum: 0 }) },
  { additionalProperties: true },
);

/** `captions`' `words`: per scene lists of word timings, or one list on the film's timeline. */
export const WordLists = orExpression(
  Type.Array(Type.Union([Word, Type.Array(Word), Type.Null()]), { minItems: 1 }),
  {
    description:
      "captions: word timings `{ word, start, end }`: one list per scene (each from its clip's start: give `clips`), or one list on the film's timeline.",
  },
);

/** `fit`'s length. */
export const FitSeconds = orExpression(Type.Number({ exclusiveMinimum: 0, maximum: 3600 }), {
  description: "fit: the length asked for, in seconds (to the frame).",
});

/** `reframe`'s aspect ratio, "W:H" (its form is checked by `checkReframeStep`). */
export const Aspect = Type.String({
  minLength: 1,
  description:
    'reframe: the aspect ratio W:H, e.g. "9:16" (quoted); the shorter side stays the source\'s (1920x1080 becomes 1080x1920).',
});

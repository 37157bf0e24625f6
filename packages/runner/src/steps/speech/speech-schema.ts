import { type Static, Type } from "@sinclair/typebox";
import { ExpressionString, OutputPath, orExpression } from "../../pipeline/schema-helpers.js";

/** Fields of a speech step body (also the shape of `defaults.speech`). */
export const speechProperties = {
  model: Type.Optional(
    Type.String({
      minLength: 1,
      description: "Speech model id, as the service or your provider profile names it.",
    }),
  ),
  input: Type.String({ minLength: 1, description: "The text to speak." }),
  voice: Type.Optional(
    Type.String({ minLength: 1, description: "A voice of the model (its profile lists them)." }),
  ),
  format: Type.Optional(
    Type.Union([Type.Literal("wav"), Type.Literal("mp3"), ExpressionString], {
      description:
        "The audio format: wav (default, unless the model answers only in others: then its first) or mp3.",
    }),
  ),
  speed: Type.Optional(
    orExpression(Type.Number({ minimum: 0.25, maximum: 4 }), {
      description: "Speaking speed, 0.25 to 4 (default 1).",
    }),
  ),
  instructions: Type.Optional(
    Type.String({ description: "How to speak (tone, accent), for models that take it." }),
  ),
  output: Type.Optional(OutputPath),
  words: Type.Optional(
    Type.Union(
      [
        Type.Object(
          {
            model: Type.Optional(
              Type.String({
                minLength: 1,
                description: "The transcription model that times each word.",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        Type.Literal(false),
        ExpressionString,
      ],
      {
        description:
          "Word timings: `{ model }` names the transcription model (default: the first the profile offers with word timestamps); `false` estimates them from the text.",
      },
    ),
  ),
};

/**
 * Body of a `speech:` step.
 *
 * @example
 * ```yaml
 * speech: { model: reel-voice-1, voice: ava, input: "${{ item.narration }}", words: { model: reel-transcribe-1 } }
 * ```
 */
export const SpeechStepSchema = Type.Object(speechProperties, {
  additionalProperties: false,
  description:
    "Speak a text. Outputs: file, duration (seconds, probed), words ([{ word, start, end }]), credits.",
});

/** A speech step body as written in the pipeline. */
export type SpeechStepSpec = Static<typeof SpeechStepSchema>;

/** What `defaults.speech` may hold: any of the body's own fields, each on its own. */
export const SpeechDefaultsSchema = Type.Partial(
  Type.Object(speechProperties, { additionalProperties: false }),
);

import { type Static, Type } from "@sinclair/typebox";
import {
  ExpressionString,
  OutputPath,
  orExpression,
  SizeString,
} from "../../pipeline/schema-helpers.js";

/** Fields of a video step body (also the shape of `defaults.video`). */
export const videoProperties = {
  model: Type.Optional(
    Type.String({
      description: "Video model id, as the service or your provider profile names it.",
    }),
  ),
  prompt: Type.String({ minLength: 1, description: "What the clip shows." }),
  seconds: Type.Optional(
    Type.Union(
      [
        Type.Integer({ minimum: 1 }),
        Type.String({ pattern: "^[0-9]+$" }),
        ExpressionString,
        Type.Object(
          {
            at_least: Type.Union([Type.Number({ exclusiveMinimum: 0 }), ExpressionString], {
              description: `The clip is at least this long, e.g. its narration's \`\${{ steps.narration.outputs[index].duration }}\`: rounded up to the nearest length the model accepts.`,
            }),
          },
          { additionalProperties: false },
        ),
      ],
      {
        description:
          "Length in seconds (within the model's maximum), or `{ at_least: SECONDS }` for the shortest length the model accepts that is at least that long.",
      },
    ),
  ),
  size: Type.Optional(
    orExpression(SizeString, { description: "WIDTHxHEIGHT allowed by the model." }),
  ),
  image: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "Reference image (local file or URL) for image-to-video; an expression giving null or an empty string leaves it out.",
    }),
  ),
  params: Type.Optional(
    Type.Record(
      Type.String({ pattern: "^(?!__proto__$|constructor$|prototype$)[A-Za-z_][A-Za-z0-9_-]*$" }),
      Type.Union([Type.String(), Type.Number(), Type.Boolean()], {
        description:
          "A value of the model's own parameter (seed, negative_prompt, aspect_ratio…): a string, number, boolean or an expression; an image parameter is a local file, URL or data URI like `image`.",
      }),
      {
        additionalProperties: false,
        description:
          "The model's own parameters, sent as they are (checked against the model's declared `params` in a provider profile). A step's `params` replaces `defaults.video.params` as a whole.",
      },
    ),
  ),
  output: Type.Optional(OutputPath),
  last_frame_output: Type.Optional(
    Type.String({
      minLength: 1,
      description: `Also save the clip's last frame here as a PNG (output \`last_frame\`), e.g. \`frames/scene-\${{ index }}.png\`: the next clip's \`image\` in a sequential fan-out.`,
    }),
  ),
};

/**
 * Body of a `video:` step.
 *
 * @example
 * ```yaml
 * video: { prompt: "${{ item.description }}", seconds: 4, output: "clips/scene-${{ index }}.mp4" }
 * ```
 */
export const VideoStepSchema = Type.Object(videoProperties, {
  additionalProperties: false,
  description:
    "Generate a clip. Outputs: file, id, duration, credits, url, probe (and last_frame with last_frame_output).",
});

/** A video step body as written in the pipeline. */
export type VideoStepSpec = Static<typeof VideoStepSchema>;

/** What `defaults.<kind>` may hold: any of the body's own fields, each on its own. */
export const VideoDefaultsSchema = Type.Partial(
  Type.Object(videoProperties, { additionalProperties: false }),
);

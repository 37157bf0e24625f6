import { type Static, Type } from "@sinclair/typebox";
import {
  ExpressionString,
  OutputPath,
  orExpression,
  SizeString,
} from "../../pipeline/schema-helpers.js";

/** Fields of an image step body (also the shape of `defaults.image`). */
export const imageProperties = {
  model: Type.Optional(
    Type.String({
      description:
        "Image model id, as the service or your provider profile's `image_models` name it.",
    }),
  ),
  prompt: Type.String({ minLength: 1, description: "What the image shows." }),
  size: Type.Optional(
    Type.Union([SizeString, Type.Literal("auto"), ExpressionString], {
      description: "WIDTHxHEIGHT the model draws (or `auto`: the model's default).",
    }),
  ),
  n: Type.Optional(
    orExpression(Type.Integer({ minimum: 1 }), {
      description: "Images to make in one request (default 1; within the model's most).",
    }),
  ),
  quality: Type.Optional(
    Type.String({ minLength: 1, description: "The model's quality setting, sent as it is." }),
  ),
  references: Type.Optional(
    Type.Union(
      [
        Type.Array(
          Type.String({
            minLength: 1,
            description:
              "A local file (relative to the pipeline's folder), an http(s) URL, a data: URI, or an expression giving a file or a list of files (an earlier step's `file`/`files`).",
          }),
        ),
        ExpressionString,
      ],
      {
        description:
          "Reference images (a character sheet, the previous keyframe): with any, the request is an edit (`/v1/images/edits`, sent as `image[]`).",
      },
    ),
  ),
  output: Type.Optional(OutputPath),
  outputs: Type.Optional(
    Type.Array(OutputPath, {
      minItems: 1,
      description: "Where each of the `n` images goes, in order (instead of `output`).",
    }),
  ),
};

/**
 * Body of an `image:` step.
 *
 * @example
 * ```yaml
 * image: { model: reel-image-1, prompt: "A lighthouse keeper, character sheet", size: 1024x1024, n: 2 }
 * ```
 */
export const ImageStepSchema = Type.Object(imageProperties, {
  additionalProperties: false,
  description:
    "Generate images (or edit references into new ones). Outputs: file, files, size, revised_prompt, credits.",
});

/** An image step body as written in the pipeline. */
export type ImageStepSpec = Static<typeof ImageStepSchema>;

/** What `defaults.image` may hold: any of the body's own fields, each on its own. */
export const ImageDefaultsSchema = Type.Partial(
  Type.Object(imageProperties, { additionalProperties: false }),
);

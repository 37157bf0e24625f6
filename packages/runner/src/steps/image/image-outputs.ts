import { arrayOf, NUMBER, objectOf, STRING, type StaticType } from "../static-types.js";

/**
 * What an image step gives: the first image's `file`, every image's `files` (in the run
 * directory), the `size` drawn, the model's `revised_prompt` and the `credits` it cost.
 * @example typeAt(imageOutputType, ["files", "*"]).type // "string"
 */
export const imageOutputType: StaticType = objectOf(
  {
    file: STRING,
    files: arrayOf(STRING),
    size: STRING,
    revised_prompt: STRING,
    credits: NUMBER,
  },
  true,
);

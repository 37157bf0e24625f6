import { NUMBER, objectOf, STRING, type StaticType } from "../static-types.js";

/**
 * What a video step gives: the clip `file` in the run directory, the job `id` and `url`, its
 * `duration` and `credits`, and the clip's `probe`.
 */
export const videoOutputType: StaticType = objectOf({
  file: STRING,
  id: STRING,
  url: STRING,
  duration: NUMBER,
  credits: NUMBER,
  probe: objectOf({}),
});

/**
 * The outputs of a video step with this body: `last_frame` (a PNG) when it names a
 * `last_frame_output`.
 * @example videoOutputsOf({ prompt: "a fox", last_frame_output: "frames/0.png" }); // has last_frame
 */
export function videoOutputsOf(spec: { last_frame_output?: unknown }): StaticType {
  if (spec.last_frame_output === undefined || videoOutputType.type !== "object")
    return videoOutputType;
  return objectOf({ ...videoOutputType.properties, last_frame: STRING });
}

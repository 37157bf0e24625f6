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

// What an ffmpeg step can do, as plain data (no schema library): the schema, the static
// checks and the error messages all read these lists.

/** The operations an ffmpeg step can do; exactly one per step. */
export const ffmpegOperations = [
  "concat",
  "fit",
  "trim",
  "audio",
  "subtitles",
  "thumbnail",
  "contact_sheet",
  "transition",
] as const;

/** A name of an ffmpeg operation. */
export type FfmpegOperation = (typeof ffmpegOperations)[number];

/** Options each operation accepts besides its own key and `output`. */
export const ffmpegOperationOptions: Record<FfmpegOperation, readonly string[]> = {
  concat: ["size", "fps", "mode"],
  transition: ["size", "fps", "mode", "effect", "duration"],
  fit: ["size", "mode"],
  trim: ["start", "end", "duration"],
  audio: ["track", "mode", "loop", "fade_in", "fade_out", "volume"],
  subtitles: ["file", "mode"],
  thumbnail: ["at", "width"],
  contact_sheet: ["columns", "tile_width", "at", "labels"],
};

/** Allowed `mode` values per operation. */
export const ffmpegModes: Partial<Record<FfmpegOperation, readonly string[]>> = {
  concat: ["contain", "cover"],
  transition: ["contain", "cover"],
  fit: ["contain", "cover"],
  audio: ["add", "replace", "mix"],
  subtitles: ["burn", "soft"],
};

/** Names of an ffmpeg step's outputs. */
export const ffmpegOutputs = ["file", "probe"] as const;

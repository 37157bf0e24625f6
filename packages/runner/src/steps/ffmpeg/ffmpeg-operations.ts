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
  "frame",
  "captions",
  "mix",
  "reframe",
] as const;

/** A name of an ffmpeg operation. */
export type FfmpegOperation = (typeof ffmpegOperations)[number];

/** Options each operation accepts besides its own key and `output`. */
export const ffmpegOperationOptions: Record<FfmpegOperation, readonly string[]> = {
  concat: ["size", "fps", "mode"],
  transition: ["size", "fps", "mode", "effect", "duration"],
  fit: ["size", "seconds", "mode"],
  trim: ["start", "end", "duration"],
  audio: ["track", "mode", "loop", "fade_in", "fade_out", "volume"],
  subtitles: ["file", "mode"],
  thumbnail: ["at", "width"],
  contact_sheet: ["columns", "tile_width", "at", "labels"],
  frame: ["at"],
  captions: ["texts", "words", "clips", "transition_duration", "style", "fonts"],
  mix: ["narration", "clips", "transition_duration", "music", "clip_audio", "duck", "loudness"],
  reframe: ["size", "aspect", "mode"],
};

/** Operations whose value is a list of files (or one expression giving a list). */
export const ffmpegListOperations: readonly FfmpegOperation[] = [
  "concat",
  "transition",
  "contact_sheet",
];

/** Operations that write an image (the others write a video). */
export const ffmpegImageOperations: readonly FfmpegOperation[] = [
  "thumbnail",
  "contact_sheet",
  "frame",
];

/** Where `frame` takes its frame from when `at` is not a number of seconds. */
export const frameEnds = ["first", "last"] as const;

/** Where burnt-in captions sit (`style.position`). */
export const captionPositions = ["bottom", "top", "middle"] as const;

/** Fields of a captions `style`. */
export const captionStyleFields = [
  "font_size",
  "color",
  "outline",
  "outline_color",
  "position",
  "margin",
  "max_line_length",
  "bold",
  "preset",
  "mode",
  "highlight_color",
] as const;

/** Fields of a captions `style` that only word captions (`words:`) read. */
export const wordCaptionStyleFields = ["preset", "mode", "highlight_color"] as const;

/** Looks of word captions (`style.preset`): big centred words, or bottom lines. */
export const wordCaptionPresets = ["social", "subtitle"] as const;

/** How word captions show the word being spoken (`style.mode`). */
export const wordCaptionModes = ["highlight", "pop"] as const;

/** `fit` with `seconds`: cut or hold the last frame (auto), only cut, only hold. */
export const fitLengthModes = ["auto", "trim", "hold"] as const;

/** `fit` with `size`: letterbox inside the frame, or fill it and crop. */
export const fitSizeModes = ["contain", "cover"] as const;

/** Allowed `mode` values per operation. */
export const ffmpegModes: Partial<Record<FfmpegOperation, readonly string[]>> = {
  concat: ["contain", "cover"],
  transition: ["contain", "cover"],
  fit: [...fitSizeModes, ...fitLengthModes],
  audio: ["add", "replace", "mix"],
  subtitles: ["burn", "soft"],
  reframe: ["crop", "blur-pad"],
};

/**
 * Names of an ffmpeg step's outputs (a video's also `duration`; `captions` adds `srt` or
 * `ass`, and `missing`; `fit` by length `action`; `mix` with a target `loudness`).
 */
export const ffmpegOutputs = ["file", "probe"] as const;

/** H.264 settings for operations that re-encode video (trim, fit, burnt subtitles). */
export const videoEncoderArgs: readonly string[] = [
  "-c:v",
  "libx264",
  "-preset",
  "veryfast",
  "-crf",
  "20",
  "-pix_fmt",
  "yuv420p",
];

/**
 * H.264 settings for an output that only feeds another ffmpeg pass: lossless (`-qp 0`) and
 * fast, so the pass that makes the final is the only lossy encode of the picture.
 */
export const losslessVideoEncoderArgs: readonly string[] = [
  "-c:v",
  "libx264",
  "-preset",
  "ultrafast",
  "-qp",
  "0",
  "-pix_fmt",
  "yuv420p",
];

/**
 * The H.264 settings of an output: lossless and fast when it is `intermediate` (only another
 * ffmpeg pass reads it), else {@link videoEncoderArgs}.
 * @example args.push(...videoEncoderArgsFor(options));
 */
export function videoEncoderArgsFor(options: {
  intermediate?: boolean | undefined;
}): readonly string[] {
  return options.intermediate ? losslessVideoEncoderArgs : videoEncoderArgs;
}

/** AAC settings for operations that re-encode audio. */
export const audioEncoderArgs: readonly string[] = [
  "-c:a",
  "aac",
  "-b:a",
  "128k",
  "-ar",
  "48000",
  "-ac",
  "2",
];

/** A positive finite number, or a TypeError naming the option. */
export function requirePositive(
  name: string,
  value: number | undefined,
  allowZero = false,
): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new TypeError(
      `Expected \`${name}\` to be a ${allowZero ? "non-negative" : "positive"} number; got ${value}`,
    );
  }
  return value;
}

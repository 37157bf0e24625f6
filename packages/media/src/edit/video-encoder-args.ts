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

/**
 * Where a narration goes when the step names no `output`: `audio/<step>-<index>.<format>`.
 * @example defaultSpeechPath("narration", 2, "wav") // "audio/narration-2.wav"
 */
export function defaultSpeechPath(
  stepId: string,
  index: number | string | undefined,
  format: string | undefined,
): string {
  return `audio/${stepId}-${index ?? 0}.${format === "mp3" ? "mp3" : "wav"}`;
}

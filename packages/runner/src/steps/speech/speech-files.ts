/**
 * Where a narration goes when the step names no `output`: `audio/<step>-<index>.<format>`.
 * @example defaultSpeechPath("narration", 2, "wav") // "audio/narration-2.wav"
 */
export function defaultSpeechPath(
  stepId: string,
  index: number | undefined,
  format: string | undefined,
): string {
  return `audio/${stepId}-${index ?? 0}.${format === "mp3" ? "mp3" : "wav"}`;
}

/**
 * The idempotency key of one request of a unit: unique to a run (its random id), step,
 * item, take and submission, and the same when that run is resumed; `request` tells the
 * unit's two requests apart (the speech, then its word timings).
 * @example speechIdempotencyKey("q1w2e3", "narration", 2, 1, "speech") // "reelsmith-q1w2e3-narration-2-1-speech"
 * @example speechIdempotencyKey("q1w2e3", "narration", 2, 1, "words", 3) // "reelsmith-q1w2e3-narration-2-take3-1-words"
 */
export function speechIdempotencyKey(
  runId: string,
  step: string,
  index: number | undefined,
  submission: number,
  request: "speech" | "words",
  take?: number,
): string {
  const taken = take !== undefined && take > 1 ? `-take${take}` : "";
  return `reelsmith-${runId}-${step}-${index ?? 0}${taken}-${submission}-${request}`;
}

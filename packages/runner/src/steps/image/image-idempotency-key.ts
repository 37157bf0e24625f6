/**
 * The idempotency key of an image request: unique to a run (its random id), step, item, take
 * and submission number, and the same when that run is resumed (so a resent request is
 * answered with the first one's images, never paid twice).
 * @example imageIdempotencyKey("q1w2e3r4t5y6", "keyframes", 2, 1) // "reelsmith-q1w2e3r4t5y6-keyframes-2-1"
 * @example imageIdempotencyKey("q1w2e3r4t5y6", "keyframes", 2, 1, 3) // "reelsmith-q1w2e3r4t5y6-keyframes-2-take3-1"
 */
export function imageIdempotencyKey(
  runId: string,
  step: string,
  index: number | undefined,
  submission: number,
  take?: number,
): string {
  const taken = take !== undefined && take > 1 ? `-take${take}` : "";
  return `reelsmith-${runId}-${step}-${index ?? 0}${taken}-${submission}`;
}

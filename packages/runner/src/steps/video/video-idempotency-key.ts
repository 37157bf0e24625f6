/**
 * The idempotency key of a submission: unique to a run (its random id), step, item and
 * submission number, and the same when that run is resumed.
 * @example videoIdempotencyKey("q1w2e3r4t5y6", "clips", 2, 1) // "reelsmith-q1w2e3r4t5y6-clips-2-1"
 */
export function videoIdempotencyKey(
  runId: string,
  step: string,
  index: number | undefined,
  submission: number,
): string {
  return `reelsmith-${runId}-${step}-${index ?? 0}-${submission}`;
}

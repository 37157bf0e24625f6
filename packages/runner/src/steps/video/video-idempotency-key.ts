/**
 * The idempotency key of a submission: unique to a run (its random id), step, item, take and
 * submission number, and the same when that run is resumed. The first take's keys name no
 * take; a retake's (take 2 on) do, so the service never answers it with an earlier take's job.
 * @example videoIdempotencyKey("q1w2e3r4t5y6", "clips", 2, 1) // "reelsmith-q1w2e3r4t5y6-clips-2-1"
 * @example videoIdempotencyKey("q1w2e3r4t5y6", "clips", 2, 1, 3) // "reelsmith-q1w2e3r4t5y6-clips-2-take3-1"
 */
export function videoIdempotencyKey(
  runId: string,
  step: string,
  index: number | undefined,
  submission: number,
  take?: number,
): string {
  const taken = take !== undefined && take > 1 ? `-take${take}` : "";
  return `reelsmith-${runId}-${step}-${index ?? 0}${taken}-${submission}`;
}

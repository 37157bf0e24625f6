/** Where one paid request of a unit stands: its run, step, item, take and submission. */
export interface UnitRequestAt {
  /** The run's random id (run.json, run.start): the same when the run is resumed. */
  runId: string;
  step: string;
  index: number | undefined;
  /** 1 for the first submission of the unit's take, then 2, 3… after a failed job. */
  submission: number;
  /** The unit's take: the first names none, a retake's (2 on) do. */
  take?: number | undefined;
  /** Tells a unit's several requests apart (a narration, then its word timings). */
  request?: string;
}

/**
 * The idempotency key of one paid request of a unit, whatever its kind: unique to a run, step,
 * item, take and submission, and the same when the run is resumed, so a service that honours
 * keys answers a resent request with what the first one made (never paid twice), and never
 * answers a retake with an earlier take's result. Budget reservations are kept under it, and
 * `reelsmith-<run>-<step>-<item>-` is every key of one item's first take.
 * @example unitIdempotencyKey({ runId: "q1w2e3r4t5y6", step: "clips", index: 2, submission: 1 }) // "reelsmith-q1w2e3r4t5y6-clips-2-1"
 * @example unitIdempotencyKey({ runId: "q1w2e3", step: "narration", index: 2, submission: 1, take: 3, request: "words" }) // "reelsmith-q1w2e3-narration-2-take3-1-words"
 */
export function unitIdempotencyKey(at: UnitRequestAt): string {
  const taken = at.take !== undefined && at.take > 1 ? `-take${at.take}` : "";
  const request = at.request ? `-${at.request}` : "";
  return `reelsmith-${at.runId}-${at.step}-${at.index ?? 0}${taken}-${at.submission}${request}`;
}

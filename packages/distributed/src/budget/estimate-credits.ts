/** Pixels × seconds that cost one credit at the reference service. */
export const referencePixelSecondsPerCredit = 100_000;

/**
 * Credits a video request is expected to cost, reserved before it is submitted: the
 * reference service charges `ceil(seconds × width × height / 100 000)` (a 4 s 1280x720 clip
 * costs 37). The service interface has no price list, so a service with other prices is
 * configured with its own `pixelSecondsPerCredit`. Unknown size or seconds reserve nothing.
 * @example estimateVideoCredits({ seconds: "4", size: "1280x720" }) // 37
 */
export function estimateVideoCredits(
  request: Record<string, unknown>,
  pixelSecondsPerCredit = referencePixelSecondsPerCredit,
): number {
  const seconds = Number(request.seconds ?? 4);
  const match = /^(\d+)x(\d+)$/.exec(String(request.size ?? "1280x720"));
  if (!match || !Number.isFinite(seconds)) return 0;
  const pixels = Number(match[1]) * Number(match[2]);
  return Math.ceil((seconds * pixels) / pixelSecondsPerCredit);
}

/** Pixels × seconds that cost one credit. */
export const pixelSecondsPerCredit = 100_000;

/**
 * Credits charged for a completed clip: `ceil(seconds × width × height / 100_000)`.
 * A 4 s 1280x720 clip costs 37 credits; a 10 s 1920x1080 clip costs 208.
 *
 * @example
 * videoCredits(4, 1280, 720); // 37
 */
export function videoCredits(seconds: number, width: number, height: number): number {
  return Math.ceil((seconds * width * height) / pixelSecondsPerCredit);
}

/** Time a job spends `pending`, per requested second of video, at time scale 1. */
export const pendingMsPerSecond = 500;
/** Time a job spends `processing`, per requested second of video, at time scale 1. */
export const processingMsPerSecond = 4500;

/**
 * How long a job of `seconds` stays pending and then processing, in ms:
 * `seconds × (500 | 4500) × the model's speed factor × timeScale`. At time scale 1 a 4 s clip
 * of reel-video-1 (factor 1) is pending 2 s and processing 18 s; at 0.01 the whole job takes 0.2 s.
 *
 * @example
 * jobTiming(4, 0.01, 1); // { pendingMs: 20, processingMs: 180 }
 */
export function jobTiming(seconds: number, timeScale: number, speedFactor: number) {
  const factor = speedFactor * timeScale;
  return {
    pendingMs: seconds * pendingMsPerSecond * factor,
    processingMs: seconds * processingMsPerSecond * factor,
  };
}

/** The `openai-poll-after-ms` hint: the time left, capped at 5 s × timeScale (at least 1 ms). */
export function pollAfterMs(remainingMs: number, timeScale: number): number {
  const cap = Math.max(20, 5000 * timeScale);
  return Math.max(1, Math.round(Math.min(Math.max(remainingMs, 0), cap)));
}

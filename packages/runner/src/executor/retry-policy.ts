import { isAbortError } from "./is-abort-error.js";

/** A step's `retry:` block. */
export interface RetrySpec {
  attempts: number;
  backoff_ms?: number;
  factor?: number;
}

/**
 * True when a step-level retry may run the failed attempt again: never after a cancellation,
 * else as the error says (`isRetryable`: core's and the runner's errors say it; a rate limit
 * or a timeout may pass, a refused request or a decision of the runner will not). An error
 * that does not say (a kind's own) is tried again.
 * @example isRetryableStepError(new RateLimitError(...)) // true
 */
export function isRetryableStepError(error: unknown): boolean {
  if (isAbortError(error)) return false;
  const flag = (error as { isRetryable?: unknown } | null | undefined)?.isRetryable;
  return typeof flag === "boolean" ? flag : true;
}

/**
 * Delay before attempt `attempt + 1` (attempt is 1-based): backoff_ms × factor^(attempt-1).
 * @example retryDelay({ attempts: 3, backoff_ms: 100, factor: 2 }, 2) // 200
 */
export function retryDelay(retry: RetrySpec, attempt: number): number {
  const base = retry.backoff_ms ?? 1000;
  const factor = retry.factor ?? 2;
  return Math.round(base * factor ** Math.max(0, attempt - 1));
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

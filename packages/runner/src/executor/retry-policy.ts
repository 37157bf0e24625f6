/** Errors (by `name`) a step-level retry never repeats: they would fail again or cost twice. */
const NEVER_RETRIED = new Set([
  // The job may exist on the service: resubmitting could pay twice.
  "AmbiguousSubmissionError",
  "AmbiguousVideoSubmissionError",
  // A re-attached job is gone: a new submission is paid again, so only the user decides.
  "LostVideoJobError",
  // The user (or the run) aborted.
  "APIUserAbortError",
  "AbortError",
  // Decisions of the runner itself.
  "BudgetExceededError",
  "OutputPathError",
  "ExpressionError",
  "InvalidRequestError",
  "MissingConfigurationError",
  "AuthenticationError",
  "PermissionDeniedError",
]);

/** A step's `retry:` block. */
export interface RetrySpec {
  attempts: number;
  backoff_ms?: number;
  factor?: number;
}

/**
 * True when a step-level retry may run the failed attempt again.
 * @example isRetryableStepError(new RateLimitError(...)) // true
 */
export function isRetryableStepError(error: unknown): boolean {
  const name = error instanceof Error ? error.name : "";
  return !NEVER_RETRIED.has(name);
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

/**
 * Whether a response status is worth another attempt: 429 (the receiver asks to slow down)
 * and every 5xx (the receiver failed, it may not next time). Any other status is the
 * receiver's answer: a 4xx will not change by sending the same body again.
 *
 * @example
 * isRetryableStatus(503); // true
 * isRetryableStatus(404); // false
 */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * The wait before attempt `attempt + 1`: `firstDelayMs` doubled after each attempt, at most
 * `maxDelayMs`.
 *
 * @example
 * backoffDelay({ attempt: 3, firstDelayMs: 500, maxDelayMs: 4000 }); // 2000
 */
export function backoffDelay(options: {
  /** Attempts made so far (1 after the first). */
  attempt: number;
  firstDelayMs: number;
  maxDelayMs: number;
}): number {
  const delay = options.firstDelayMs * 2 ** Math.max(0, options.attempt - 1);
  return Math.min(delay, options.maxDelayMs);
}

/**
 * A `Retry-After` header in milliseconds: whole seconds or an HTTP date (`undefined` when
 * absent or unreadable; a date in the past is 0).
 *
 * @example
 * parseRetryAfter("2"); // 2000
 * parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("Wed, 21 Oct 2015 07:27:59 GMT")); // 1000
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its day and month; anything else (e.g. "-1") is not one.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

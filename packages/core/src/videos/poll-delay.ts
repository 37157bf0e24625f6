import type { IncomingHttpHeaders } from "node:http";
import { retryAfterDelay } from "../http/retry-policy.js";

/** Bounds for a server's poll hint. */
export const minPollHintMs = 50;
export const maxPollHintMs = 60_000;
/** Most a hinted delay is lengthened by jitter (and never more than 5% of it). */
export const maxHintJitterMs = 250;

/**
 * Delay before the next poll of a video job.
 *
 * - The service's hint — `openai-poll-after-ms`, else `Retry-After`/`retry-after-ms` on the
 *   poll's answer — clamped to [50 ms, 60 s], plus a small jitter (0–5 %, at most 250 ms) so
 *   that jobs started together do not poll in lockstep. A hint is usually the time the job
 *   has left: it is never cut short, and never waited much past.
 * - Without a hint, the interval (the spec recommends 5–10 s) plus 0–20 % jitter: never
 *   faster than the interval.
 */
export function pollDelay(
  headers: IncomingHttpHeaders | undefined,
  intervalMs: number,
  random = Math.random,
): number {
  const raw = headers?.["openai-poll-after-ms"];
  const value = Array.isArray(raw) ? raw[0] : raw;
  let hint = value !== undefined && value.trim() !== "" ? Number(value) : Number.NaN;
  if (!Number.isFinite(hint) && headers) hint = retryAfterDelay(headers, maxPollHintMs) ?? hint;
  if (Number.isFinite(hint)) {
    const clamped = Math.min(Math.max(Math.round(hint), minPollHintMs), maxPollHintMs);
    return Math.round(clamped + random() * Math.min(0.05 * clamped, maxHintJitterMs));
  }
  return Math.max(1, Math.round(intervalMs * (1 + 0.2 * random())));
}

import type { IncomingHttpHeaders } from "node:http";

/** Bounds for a server's `openai-poll-after-ms` hint. */
export const minPollHintMs = 50;
export const maxPollHintMs = 60_000;

/**
 * Delay before the next poll: the server's `openai-poll-after-ms` hint clamped to
 * [50 ms, 60 s] when present, else `intervalMs` with ±10% jitter.
 */
export function pollDelay(
  headers: IncomingHttpHeaders | undefined,
  intervalMs: number,
  random = Math.random,
): number {
  const raw = headers?.["openai-poll-after-ms"];
  const hint = Number(Array.isArray(raw) ? raw[0] : raw);
  if (raw !== undefined && Number.isFinite(hint)) {
    return Math.min(Math.max(Math.round(hint), minPollHintMs), maxPollHintMs);
  }
  return Math.max(1, Math.round(intervalMs * (0.9 + 0.2 * random())));
}

import { ReelsmithError } from "./reelsmith-error.js";

/**
 * A paid submission whose answer was lost (the process was killed, or the connection dropped
 * after the request was written) to a provider that offers no way to find it again (no
 * idempotency key, no listing reelsmith can match): whether it was made, and charged, is
 * unknown. Nothing is sent again; the message says what to check, and where.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (RequestUnsettledError.isInstance(error)) console.error(error.provider, error.whereToCheck);
 * }
 * ```
 */
export class RequestUnsettledError extends ReelsmithError {
  /** The provider the request went to (`fal`, …). */
  readonly provider: string;
  /** The key reelsmith journaled for the submission (not sent to a provider that ignores it). */
  readonly idempotencyKey: string;
  /** When the request was sent, in ms since the epoch. */
  readonly sinceMs: number;
  /** Where the account's requests can be looked at, and what to look for. */
  readonly whereToCheck: string;
  constructor(options: {
    provider: string;
    idempotencyKey: string;
    sinceMs: number;
    /** What was sent, e.g. `POST fal-ai/kling-video/v2.1/standard/text-to-video`. */
    request: string;
    whereToCheck: string;
    cause?: unknown;
  }) {
    const since = new Date(options.sinceMs).toISOString();
    super(
      `Whether ${options.request} (sent at ${since}) was carried out, and charged, cannot be settled: ${options.provider} offers no idempotency key, so the lost answer cannot be found again. Nothing was sent again, to avoid paying twice. ${options.whereToCheck}`,
      {
        code: "request_unsettled",
        isRetryable: false,
        hint: `If no request was made, resume with --resubmit-lost to send it again; if one was made, wait for it in ${options.provider}'s dashboard.`,
        cause: options.cause,
      },
    );
    this.provider = options.provider;
    this.idempotencyKey = options.idempotencyKey;
    this.sinceMs = options.sinceMs;
    this.whereToCheck = options.whereToCheck;
  }
}

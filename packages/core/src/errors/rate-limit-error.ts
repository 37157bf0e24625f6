import { APIError, type APIErrorFields } from "./api-error.js";

/**
 * HTTP 429: too many requests (retried automatically, honouring retry-after).
 *
 * @example
 * ```ts
 * catch (error) { if (RateLimitError.isInstance(error)) console.error(error.message, error.requestId); }
 * ```
 */
export class RateLimitError extends APIError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.RateLimitError");
  constructor(message: string, fields: APIErrorFields = {}) {
    super(
      message,
      {
        status: 429,
        isRetryable: true,
        hint: "the service is rate limiting; retry later or lower --max-videos",
        ...fields,
      },
      "rate_limit_exceeded",
    );
  }
}

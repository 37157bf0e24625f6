import { APIError, type APIErrorFields } from "./api-error.js";

/**
 * HTTP 400: the service rejected the request as malformed or invalid.
 *
 * @example
 * ```ts
 * catch (error) { if (BadRequestError.isInstance(error)) console.error(error.message, error.requestId); }
 * ```
 */
export class BadRequestError extends APIError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.BadRequestError");
  constructor(message: string, fields: APIErrorFields = {}) {
    super(message, { status: 400, isRetryable: false, ...fields }, "bad_request");
  }
}

import { APIError, type APIErrorFields } from "./api-error.js";

/**
 * HTTP 409: a conflicting request is in progress (retried automatically).
 *
 * @example
 * ```ts
 * catch (error) { if (ConflictError.isInstance(error)) console.error(error.message, error.requestId); }
 * ```
 */
export class ConflictError extends APIError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.ConflictError");
  constructor(message: string, fields: APIErrorFields = {}) {
    super(message, { status: 409, isRetryable: true, ...fields }, "conflict");
  }
}

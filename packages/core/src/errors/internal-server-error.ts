import { APIError, type APIErrorFields } from "./api-error.js";

/**
 * HTTP 5xx: the service failed (retried automatically). `status` holds the exact code.
 *
 * @example
 * ```ts
 * catch (error) { if (InternalServerError.isInstance(error)) console.error(error.message, error.requestId); }
 * ```
 */
export class InternalServerError extends APIError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.InternalServerError");
  constructor(message: string, fields: APIErrorFields = {}) {
    super(message, { status: 500, isRetryable: true, ...fields }, "internal_server_error");
  }
}

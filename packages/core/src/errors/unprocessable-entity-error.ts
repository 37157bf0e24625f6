import { APIError, type APIErrorFields } from "./api-error.js";

/**
 * HTTP 422: the request was well-formed but could not be processed.
 *
 * @example
 * ```ts
 * catch (error) { if (UnprocessableEntityError.isInstance(error)) console.error(error.message, error.requestId); }
 * ```
 */
export class UnprocessableEntityError extends APIError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.UnprocessableEntityError");
  constructor(message: string, fields: APIErrorFields = {}) {
    super(message, { status: 422, isRetryable: false, ...fields }, "unprocessable_entity");
  }
}

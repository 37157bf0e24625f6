import { APIError, type APIErrorFields } from "./api-error.js";

/**
 * HTTP 404: the model, job or path does not exist.
 *
 * @example
 * ```ts
 * catch (error) { if (NotFoundError.isInstance(error)) console.error(error.message, error.requestId); }
 * ```
 */
export class NotFoundError extends APIError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.NotFoundError");
  constructor(message: string, fields: APIErrorFields = {}) {
    super(message, { status: 404, isRetryable: false, ...fields }, "not_found");
  }
}

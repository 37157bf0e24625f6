import { APIError, type APIErrorFields } from "./api-error.js";

/**
 * HTTP 403: the API key may not use this resource.
 *
 * @example
 * ```ts
 * catch (error) { if (PermissionDeniedError.isInstance(error)) console.error(error.message, error.requestId); }
 * ```
 */
export class PermissionDeniedError extends APIError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.PermissionDeniedError");
  constructor(message: string, fields: APIErrorFields = {}) {
    super(
      message,
      {
        status: 403,
        isRetryable: false,
        hint: "the API key lacks access to this model or endpoint",
        ...fields,
      },
      "permission_denied",
    );
  }
}

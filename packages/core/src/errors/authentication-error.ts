import { APIError, type APIErrorFields } from "./api-error.js";

/**
 * HTTP 401: the API key is missing or invalid.
 *
 * @example
 * ```ts
 * catch (error) { if (AuthenticationError.isInstance(error)) console.error(error.message, error.requestId); }
 * ```
 */
export class AuthenticationError extends APIError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.AuthenticationError");
  constructor(message: string, fields: APIErrorFields = {}) {
    super(
      message,
      {
        status: 401,
        isRetryable: false,
        hint: "check the API key (--api-key, REELSMITH_API_KEY or OPENAI_API_KEY)",
        ...fields,
      },
      "authentication_error",
    );
  }
}

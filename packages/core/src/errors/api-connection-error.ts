import { ReelsmithError } from "./reelsmith-error.js";

/**
 * The connection to the service failed (refused, reset, DNS, dropped mid-body).
 * Retried automatically for requests that are safe to repeat.
 *
 * @example
 * ```ts
 * catch (error) { if (APIConnectionError.isInstance(error)) console.error("service unreachable"); }
 * ```
 */
export class APIConnectionError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.APIConnectionError");
  constructor(
    message = "Connection error.",
    options: { cause?: unknown; code?: string; hint?: string } = {},
  ) {
    super(message, {
      code: options.code ?? "connection_error",
      isRetryable: true,
      cause: options.cause,
      hint:
        options.hint ??
        "check the base URL (--base-url, REELSMITH_BASE_URL) and that the service is reachable",
    });
  }
}

import { APIConnectionError } from "./api-connection-error.js";

/**
 * One attempt exceeded its `timeoutMs` (connection, headers and body included).
 *
 * @example
 * ```ts
 * catch (error) { if (APITimeoutError.isInstance(error)) console.error(`gave up after ${error.timeoutMs} ms`); }
 * ```
 */
export class APITimeoutError extends APIConnectionError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.APITimeoutError");
  readonly timeoutMs: number;
  constructor(
    timeoutMs: number,
    options: { cause?: unknown; message?: string; code?: string } = {},
  ) {
    super(options.message ?? `Request timed out after ${timeoutMs} ms.`, {
      code: options.code ?? "timeout",
      cause: options.cause,
      hint: "the service did not answer in time; try again, or check its status",
    });
    this.timeoutMs = timeoutMs;
  }
}

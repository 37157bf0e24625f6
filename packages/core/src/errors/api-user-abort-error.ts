import { ReelsmithError } from "./reelsmith-error.js";

/**
 * The caller's `AbortSignal` fired (or `stream.abort()` was called). Never retried.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 1000);
 * try { await client.videos.waitFor(id, { signal: controller.signal }); }
 * catch (error) { if (APIUserAbortError.isInstance(error)) console.log("cancelled"); }
 * ```
 */
export class APIUserAbortError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.APIUserAbortError");
  constructor(message = "Request was aborted.", options: { cause?: unknown } = {}) {
    super(message, {
      code: "aborted",
      isRetryable: false,
      category: "interrupted",
      cause: options.cause,
    });
  }
}

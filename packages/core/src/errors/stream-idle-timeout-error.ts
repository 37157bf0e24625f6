import { APITimeoutError } from "./api-timeout-error.js";

/**
 * A streamed response (SSE chat or download) received no byte for `streamIdleTimeoutMs`.
 *
 * @example
 * ```ts
 * catch (error) { if (StreamIdleTimeoutError.isInstance(error)) console.error("stream stalled"); }
 * ```
 */
export class StreamIdleTimeoutError extends APITimeoutError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.StreamIdleTimeoutError");
  constructor(idleMs: number, options: { cause?: unknown } = {}) {
    super(idleMs, {
      message: `Stream stalled: no data for ${idleMs} ms.`,
      code: "stream_idle_timeout",
      cause: options.cause,
    });
  }
}

import { APIConnectionError } from "../errors/api-connection-error.js";
import { APIUserAbortError } from "../errors/api-user-abort-error.js";
import { StreamIdleTimeoutError } from "../errors/stream-idle-timeout-error.js";
import type { StreamResponse } from "./transport.js";

/**
 * Yields the chunks of a response body, failing with `StreamIdleTimeoutError` when no
 * chunk arrives for `idleMs` (time spent by the consumer between chunks is not counted),
 * `APIUserAbortError` when the caller aborted, `APIConnectionError` when the connection
 * dropped. Releases the response when done, early return included.
 */
export async function* readBody(
  response: StreamResponse,
  idleMs: number,
  redact: (text: string) => string,
): AsyncGenerator<Uint8Array> {
  let idle = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    timer = setTimeout(() => {
      idle = true;
      response.abort();
    }, idleMs);
  };
  let finished = false;
  try {
    arm();
    const iterator = response.body[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await iterator.next();
      } catch (error) {
        if (response.userAborted()) throw new APIUserAbortError(undefined, { cause: error });
        if (idle) throw new StreamIdleTimeoutError(idleMs);
        const message = error instanceof Error ? redact(error.message) : "unknown error";
        throw new APIConnectionError(
          `The connection dropped while reading the response: ${message}`,
          {
            cause:
              error instanceof Error
                ? Object.assign(new Error(message), { code: (error as { code?: unknown }).code })
                : undefined,
          },
        );
      }
      clearTimeout(timer);
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
      arm();
    }
  } finally {
    clearTimeout(timer);
    if (!finished) response.body.destroy();
    response.release();
  }
}

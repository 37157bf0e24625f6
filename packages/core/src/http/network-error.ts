import { AmbiguousSubmissionError } from "../errors/ambiguous-submission-error.js";
import { APIConnectionError } from "../errors/api-connection-error.js";
import { APITimeoutError } from "../errors/api-timeout-error.js";
import { APIUserAbortError } from "../errors/api-user-abort-error.js";
import { ReelsmithError } from "../errors/reelsmith-error.js";
import { isConnectPhaseError } from "./retry-policy.js";

/** What is known about a failed attempt when undici throws. */
export interface NetworkFailure {
  error: unknown;
  /** `connect`: before the response headers; `body`: while reading the body. */
  phase: "connect" | "body";
  /** True when the caller's signal fired (decided from the signal, not guessed). */
  userAborted: boolean;
  userReason?: unknown;
  /** True when this attempt's own timer fired. */
  timedOut: boolean;
  timeoutMs: number;
  /** Set for `POST /v1/videos`. */
  idempotencyKey?: string | undefined;
  /** The request, when it is not a video submission (for the error's message). */
  request?: string | undefined;
  redact: (text: string) => string;
}

/**
 * Turns an undici/network failure into a reelsmith error: the caller's abort →
 * `APIUserAbortError`; a video submission that may have reached the server →
 * `AmbiguousSubmissionError`; the attempt's timer → `APITimeoutError`; else
 * `APIConnectionError`. The cause keeps name, code and the (redacted) message only.
 */
export function networkError(failure: NetworkFailure): ReelsmithError {
  const { error } = failure;
  if (ReelsmithError.isInstance(error)) return error;
  if (failure.userAborted) return new APIUserAbortError(undefined, { cause: failure.userReason });
  let cause: Error | undefined;
  if (error instanceof Error) {
    cause = Object.assign(new Error(failure.redact(error.message)), {
      name: error.name,
      code: (error as { code?: unknown }).code,
    });
  }
  const notWritten = failure.phase === "connect" && isConnectPhaseError(error);
  if (failure.idempotencyKey !== undefined && !notWritten) {
    return new AmbiguousSubmissionError(failure.idempotencyKey, {
      ...(failure.request !== undefined ? { request: failure.request } : {}),
      cause: failure.timedOut
        ? new APITimeoutError(failure.timeoutMs, { cause })
        : new APIConnectionError(undefined, { cause }),
    });
  }
  if (failure.timedOut) return new APITimeoutError(failure.timeoutMs, { cause });
  const message = cause ? `Connection error: ${cause.message}` : "Connection error.";
  return new APIConnectionError(message, { cause });
}

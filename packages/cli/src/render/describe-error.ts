import type { SerializedError } from "../contracts/run-event.js";

/**
 * One line describing a serialised error: its message, then its code when it adds something.
 *
 * @example
 * describeError({ code: "rate_limit", message: "Too many requests" }); // "Too many requests (rate_limit)"
 */
export function describeError(error: SerializedError | undefined): string {
  if (!error) return "unknown error";
  const message = String(error.message ?? "unknown error");
  // A step's error names its cause's code when there is one (approval_timeout, rate_limited…).
  const own = typeof error.causeCode === "string" ? error.causeCode : error.code;
  const code = typeof own === "string" && !message.includes(own) ? own : "";
  return code ? `${message} (${code})` : message;
}

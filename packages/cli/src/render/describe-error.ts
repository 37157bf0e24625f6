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
  const code = typeof error.code === "string" && !message.includes(error.code) ? error.code : "";
  return code ? `${message} (${code})` : message;
}

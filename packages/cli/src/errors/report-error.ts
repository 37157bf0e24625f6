import { CommanderError } from "commander";
import type { CliContext } from "../context.js";
import { CliError, ExitCode } from "./cli-error.js";

interface ErrorLike {
  name?: string;
  code?: unknown;
  message?: string;
  stack?: string;
  cause?: unknown;
  hint?: unknown;
}

/** Library errors that mean "the pipeline or its inputs are invalid" (exit code 2). */
const INVALID_INPUT_NAMES =
  /^(InputError|PipelineError|PipelineValidationError|ValidationError|InvalidRequestError|ExpressionError)$/;

/**
 * The exit code for an error: a CliError's own, 2 for usage and invalid pipelines or inputs,
 * 130 for an interruption, 1 otherwise.
 *
 * @example
 * exitCodeOf(new UsageError("bad flag")); // 2
 */
export function exitCodeOf(error: unknown): number {
  if (CliError.isInstance(error)) return error.exitCode;
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  const like = (error ?? {}) as ErrorLike;
  if (like.name === "AbortError" || like.name === "APIUserAbortError") return ExitCode.interrupted;
  if (like.name && INVALID_INPUT_NAMES.test(like.name)) return ExitCode.usage;
  return ExitCode.failed;
}

/**
 * Print an error as one clear message (what, and what to do), with the stack and causes only
 * when `context.debug` is set. Returns the exit code to use.
 *
 * @example
 * return reportError(error, context);
 */
export function reportError(error: unknown, context: CliContext): number {
  const code = exitCodeOf(error);
  if (error instanceof CommanderError) return code; // commander already printed its message
  const like = (error ?? {}) as ErrorLike;
  const message = like.message || String(error);
  const errorCode =
    typeof like.code === "string" && !message.includes(like.code) ? ` (${like.code})` : "";
  const lines = [`error: ${message}${errorCode}`];
  if (typeof like.hint === "string" && like.hint) lines.push(`  hint: ${like.hint}`);
  if (context.debug) {
    if (like.stack) lines.push(like.stack);
    let cause = like.cause as ErrorLike | undefined;
    for (let depth = 0; cause && depth < 5; depth += 1) {
      lines.push(`caused by: ${cause.stack ?? cause.message ?? String(cause)}`);
      cause = cause.cause as ErrorLike | undefined;
    }
  } else if (code === ExitCode.failed) {
    lines.push("  (run with --debug for details)");
  }
  context.stderr.write(`${lines.join("\n")}\n`);
  return code;
}

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

/**
 * Library errors that mean "the pipeline or its inputs are invalid" (exit code 2), or that
 * its certain cost is over its budget: refused before anything was sent.
 */
const INVALID_INPUT_NAMES =
  /^(InputError|PipelineError|PipelineValidationError|ValidationError|InvalidRequestError|ExpressionError|PipelineChangedError|PipelineLoadError|ResumeError|RunDirectoryInUseError|UnknownModelError|BudgetEstimateError|ApprovalRefusedError)$/;

/** What to do about well-known library errors, by class name. */
const HINTS: Record<string, string> = {
  APIConnectionError:
    "check the base URL (--base-url, REELSMITH_BASE_URL) and that the service is reachable",
  APITimeoutError: "the service did not answer in time; try again, or check its status",
  AuthenticationError: "check the API key (--api-key, REELSMITH_API_KEY or OPENAI_API_KEY)",
  PermissionDeniedError: "the API key lacks access to this model or endpoint",
  MissingConfigurationError:
    "pass --base-url and --api-key, or set REELSMITH_BASE_URL and REELSMITH_API_KEY",
  FfmpegNotFoundError: "install ffmpeg, or set FFMPEG_PATH to its binary",
  RateLimitError: "the service is rate limiting; retry later or lower --max-videos",
  ApprovalRefusedError:
    "see where the run stands with `reelsmith report RUN_DIR` (or `reelsmith status RUN_ID --database …`)",
};

/**
 * The source line under an error placed in a file (a pipeline's diagnostics), with a caret
 * under its column: the first problem's, as the message names it.
 */
function quotedSource(error: unknown): string[] {
  const diagnostics = (error as { diagnostics?: unknown } | null)?.diagnostics;
  if (!Array.isArray(diagnostics)) return [];
  const first = diagnostics.find(
    (diagnostic: { severity?: string; sourceLine?: unknown }) =>
      diagnostic?.severity === "error" && typeof diagnostic.sourceLine === "string",
  ) as { sourceLine: string; column: number } | undefined;
  if (!first) return [];
  const source = first.sourceLine.replace(/\t/g, " ");
  const caret = " ".repeat(Math.max(0, Math.min(first.column - 1, source.length)));
  return [`  ${source}`, `  ${caret}^`];
}

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
  lines.push(...quotedSource(error));
  const hint = typeof like.hint === "string" && like.hint ? like.hint : HINTS[like.name ?? ""];
  if (hint) lines.push(`  hint: ${hint}`);
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

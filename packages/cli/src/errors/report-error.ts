import { type ErrorCategory, ReelsmithError } from "@reelsmith/core/errors";
import { CommanderError } from "commander";
import type { CliContext } from "../context.js";
import { EXIT_CODE_OF_CATEGORY, ExitCode } from "./cli-error.js";

interface ErrorLike {
  name?: string;
  code?: unknown;
  message?: string;
  stack?: string;
  cause?: unknown;
  hint?: unknown;
}

/**
 * What to do, by category, for an error that says nothing of its own (its `hint` comes first).
 */
const CATEGORY_HINTS: Partial<Record<ErrorCategory, string>> = {
  waiting: "decide with `reelsmith approve RUN_DIR` (or `reject`), then `reelsmith resume RUN_DIR`",
};

/**
 * What an error means (see core's `ErrorCategory`): a reelsmith error's own category (every
 * package's errors carry one, as do errors read back from a journal or a worker); the
 * platform's AbortError is an interruption; anything else a failure.
 */
function categoryOf(error: unknown): ErrorCategory {
  if (ReelsmithError.isInstance(error)) return error.category;
  return (error as { name?: unknown } | null)?.name === "AbortError" ? "interrupted" : "failed";
}

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
 * The exit code for an error, from its category (usage and invalid 2, budget 3, waiting 4,
 * interrupted 130, else 1); commander's own errors are usage problems.
 *
 * @example
 * exitCodeOf(new UsageError("bad flag")); // 2
 */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  return EXIT_CODE_OF_CATEGORY[categoryOf(error)];
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
  const hint =
    typeof like.hint === "string" && like.hint ? like.hint : CATEGORY_HINTS[categoryOf(error)];
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

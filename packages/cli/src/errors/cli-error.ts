import { type ErrorCategory, ReelsmithError } from "@reelsmith/core/errors";

/** Exit codes of the `reelsmith` command. */
export const ExitCode = {
  /** Everything worked. */
  ok: 0,
  /** The pipeline ran and failed. */
  failed: 1,
  /** The pipeline is invalid, or the command line is (or its certain cost is over its budget). */
  usage: 2,
  /** The run stopped at its credit budget (`max_credits`, `--max-credits`): resume it with more. */
  budget: 3,
  /**
   * The run stopped at a gate (`approve:` step) and waits for a decision: `reelsmith approve`
   * (or `reject`), then `reelsmith resume`.
   */
  waiting: 4,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

/** One of {@link ExitCode}'s values. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * The exit code of each error category: the one place the CLI turns what an error means into
 * how the process ends (see core's `ErrorCategory`).
 * @example process.exitCode = EXIT_CODE_OF_CATEGORY[error.category];
 */
export const EXIT_CODE_OF_CATEGORY: Record<ErrorCategory, ExitCodeValue> = {
  usage: ExitCode.usage,
  invalid: ExitCode.usage,
  budget: ExitCode.budget,
  waiting: ExitCode.waiting,
  rejected: ExitCode.failed,
  interrupted: ExitCode.interrupted,
  failed: ExitCode.failed,
};

/**
 * An error the CLI reports as one clear message: what went wrong, where, and what to do.
 * A `ReelsmithError` like every reelsmith error: its category (`failed` unless given) gives
 * the exit code, and it has a stable `code` and a `hint`.
 *
 * @example
 * throw new CliError("inputs file not found: story.json", {
 *   code: "inputs_file_not_found",
 *   category: "usage",
 *   hint: "pass a path relative to the current directory",
 * });
 */
export class CliError extends ReelsmithError {
  constructor(
    message: string,
    options: { code: string; category?: ErrorCategory; hint?: string; cause?: unknown },
  ) {
    super(message, options);
  }

  /** The exit code the CLI ends with for this error (from its category). */
  get exitCode(): ExitCodeValue {
    return EXIT_CODE_OF_CATEGORY[this.category];
  }
}

/**
 * A usage problem (bad flag value, missing file): exit code 2.
 *
 * @example
 * throw new UsageError("--concurrency must be a whole number from 1 up, got 'x'");
 */
export class UsageError extends CliError {
  constructor(message: string, options: { code?: string; hint?: string; cause?: unknown } = {}) {
    super(message, { ...options, code: options.code ?? "usage", category: "usage" });
  }
}

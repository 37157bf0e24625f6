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

const marker = Symbol.for("reelsmith.cli.error");

/**
 * An error the CLI reports as one clear message: what went wrong, where, and what to do.
 * It carries the exit code to use and a stable `code`.
 *
 * @example
 * throw new CliError("inputs file not found: story.json", {
 *   code: "inputs_file_not_found",
 *   exitCode: ExitCode.usage,
 *   hint: "pass a path relative to the current directory",
 * });
 */
export class CliError extends Error {
  readonly [marker] = true;
  readonly code: string;
  readonly exitCode: ExitCodeValue;
  readonly hint?: string;

  constructor(
    message: string,
    options: { code: string; exitCode?: ExitCodeValue; hint?: string; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.name = "CliError";
    this.code = options.code;
    this.exitCode = options.exitCode ?? ExitCode.failed;
    this.hint = options.hint;
  }

  /** True for a CliError, even from another copy of this package. */
  static isInstance(value: unknown): value is CliError {
    return typeof value === "object" && value !== null && marker in value;
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
    super(message, { code: options.code ?? "usage", exitCode: ExitCode.usage, ...options });
    this.name = "UsageError";
  }
}

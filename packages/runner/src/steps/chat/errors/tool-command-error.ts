import { RunnerError } from "../../../errors/runner-error.js";

/**
 * A tool's `run:` command exited non-zero, timed out or could not start.
 * @example throw new ToolCommandError(["node", "t.js"], 2, "boom");
 */
export class ToolCommandError extends RunnerError {
  readonly argv: string[];
  readonly exitCode: number | null;
  readonly stderrTail: string;
  constructor(argv: string[], exitCode: number | null, stderrTail: string, reason?: string) {
    super(
      "tool_command_failed",
      `Tool command ${JSON.stringify(argv[0])} ${reason ?? `exited with code ${exitCode}`}${stderrTail ? `: ${stderrTail}` : ""}`,
    );
    this.argv = argv;
    this.exitCode = exitCode;
    this.stderrTail = stderrTail;
  }
}

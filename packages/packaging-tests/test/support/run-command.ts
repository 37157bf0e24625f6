import { spawn } from "node:child_process";

/** What a finished command left behind. */
export interface CommandResult {
  /** Exit code, or null when a signal ended it. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of `runCommand()`. */
export interface RunCommandOptions {
  cwd: string;
  /** Environment of the command (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs a command without a shell and collects its output; it never rejects on a non-zero
 * exit, so a test can assert on the code and say what the command printed.
 *
 * @example
 * const { code, stdout } = await runCommand("node", ["--version"], { cwd: process.cwd() });
 */
export function runCommand(
  file: string,
  arguments_: string[],
  options: RunCommandOptions,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, arguments_, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A command's output for an assertion message.
 *
 * @example
 * expect(result.code, describeResult(result)).toBe(0);
 */
export function describeResult(result: CommandResult): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

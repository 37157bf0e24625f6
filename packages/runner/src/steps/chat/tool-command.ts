import { spawn } from "node:child_process";
import { isAbsolute, resolve } from "node:path";
import { ToolCommandError } from "./errors/tool-command-error.js";

/** Environment variables a tool command never sees (the service credentials). */
const HIDDEN_ENV = ["REELSMITH_API_KEY", "OPENAI_API_KEY"];
const MAX_OUTPUT = 1024 * 1024;

/**
 * Runs a tool's `run:` argv (no shell): the arguments go as JSON on stdin, the answer is
 * read from stdout (parsed as JSON when it is JSON). A non-zero exit, a timeout or a failure
 * to start throws ToolCommandError. Relative program paths resolve against `cwd`.
 * @example await runToolCommand(["node", "lookup.js"], { city: "Oslo" }, { cwd, timeoutMs: 30_000, signal });
 */
export function runToolCommand(
  argv: readonly string[],
  args: unknown,
  options: { cwd: string; timeoutMs: number; signal?: AbortSignal },
): Promise<unknown> {
  const [program, ...rest] = argv;
  if (!program) return Promise.reject(new ToolCommandError([], null, "", "is empty"));
  const command =
    /^\.\.?[\\/]/.test(program) && !isAbsolute(program) ? resolve(options.cwd, program) : program;
  const env = { ...process.env };
  for (const name of HIDDEN_ENV) delete env[name];
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, rest, {
      cwd: options.cwd,
      env,
      signal,
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(JSON.stringify(args ?? {}));
    child.on("error", (error) => {
      if (timeout.aborted && !options.signal?.aborted) {
        reject(
          new ToolCommandError(
            [...argv],
            null,
            stderr.trim(),
            `timed out after ${options.timeoutMs} ms`,
          ),
        );
      } else if (options.signal?.aborted) {
        reject(options.signal.reason);
      } else {
        reject(
          new ToolCommandError(
            [...argv],
            null,
            stderr.trim(),
            `could not start (${error.message})`,
          ),
        );
      }
    });
    child.on("close", (code) => {
      if (signal.aborted) return; // settled by "error"
      if (code !== 0) return reject(new ToolCommandError([...argv], code, stderr.trim()));
      const text = stdout.trim();
      try {
        resolvePromise(JSON.parse(text));
      } catch {
        resolvePromise(text);
      }
    });
  });
}

import type { CliContext } from "../context.js";
import { createRedactor, redactingSink } from "../render/redact.js";

/** A CliContext writing to strings, for tests of commands. */
export function createTestContext(options: {
  cwd: string;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  isTTY?: boolean;
}) {
  const output = { stdout: "", stderr: "" };
  const secrets = new Set<string>();
  const redactor = () => createRedactor([...secrets]);
  const context: CliContext = {
    stdout: redactingSink(
      { write: (text: string) => (output.stdout += text), isTTY: options.isTTY ?? false },
      redactor,
    ),
    stderr: redactingSink({ write: (text: string) => (output.stderr += text) }, redactor),
    env: options.env ?? {},
    cwd: options.cwd,
    signal: options.signal ?? new AbortController().signal,
    secrets,
    debug: false,
  };
  return { context, output };
}

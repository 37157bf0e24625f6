import { loadEnvironment } from "./config/connection.js";
import type { CliContext } from "./context.js";
import { ExitCode } from "./errors/cli-error.js";
import { executeCli } from "./program.js";
import { closableSink } from "./render/closable-sink.js";
import { createRedactor, redactingSink } from "./render/redact.js";

/**
 * The only place that touches the process: reads argv, env and cwd, wires interrupts (a first
 * Ctrl-C stops: nothing new starts and the video jobs already paid for are waited for; SIGTERM
 * or a second Ctrl-C leaves now, the jobs left journaled for `resume`; a third exits at once
 * with 130), writes to stdout/stderr through a redaction pass (a closed one is told to the
 * command through `outputClosed`, never a crash), and sets the exit code.
 *
 * @example
 * // src/bin.ts
 * await runMain(process.argv);
 */
export async function runMain(argv: string[] = process.argv): Promise<void> {
  const controller = new AbortController();
  const force = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts += 1;
    if (interrupts === 1) controller.abort();
    else if (interrupts === 2) force.abort();
    else process.exit(ExitCode.interrupted);
  };
  // A CI runner's cancel (SIGTERM) gives a few seconds: leave at once, resumable.
  const onTerminate = () => {
    interrupts = Math.max(interrupts, 1) + 1;
    controller.abort();
    force.abort();
  };
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onTerminate);
  const secrets = new Set<string>();
  let redactor = createRedactor([]);
  let redactorSize = 0;
  const currentRedactor = () => {
    if (secrets.size !== redactorSize) {
      redactor = createRedactor([...secrets]);
      redactorSize = secrets.size;
    }
    return redactor;
  };
  // A reader that goes away (`… | head`, a closed terminal) is a gentle stop, not a crash.
  const outputClosed = new AbortController();
  const onClosed = () => outputClosed.abort();
  const cwd = process.cwd();
  const context: CliContext = {
    stdout: redactingSink(closableSink(process.stdout, onClosed), currentRedactor),
    stderr: redactingSink(closableSink(process.stderr, onClosed), currentRedactor),
    outputClosed: outputClosed.signal,
    env: loadEnvironment(cwd, process.env),
    cwd,
    signal: controller.signal,
    forceSignal: force.signal,
    secrets,
    debug: Boolean(process.env.REELSMITH_DEBUG),
    stdio: { stdin: process.stdin, stdout: process.stdout },
  };
  const code = await executeCli(argv.slice(2), context);
  process.off("SIGINT", onInterrupt);
  process.off("SIGTERM", onTerminate);
  process.exitCode = code;
  // Leave once output is flushed, even if a library left a handle open.
  setTimeout(() => process.exit(code), 1000).unref();
}

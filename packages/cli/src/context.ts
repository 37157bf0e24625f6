import type { Readable, Writable } from "node:stream";
import type { TextSink } from "./render/redact.js";

/**
 * Everything a command may use from its surroundings. Only `runMain` builds one from the real
 * process; tests build their own. Commands never touch `process` directly.
 *
 * @example
 * const context = createTestContext({ cwd: dir }); // in tests
 */
export interface CliContext {
  stdout: TextSink;
  stderr: TextSink;
  /** The environment, with a `.env` of `cwd` merged underneath. */
  env: Record<string, string | undefined>;
  cwd: string;
  /**
   * Aborted on the first Ctrl-C (or SIGTERM): stop. A local run starts nothing new and waits
   * for the video jobs it already paid for.
   */
  signal: AbortSignal;
  /**
   * Aborted on SIGTERM or a second Ctrl-C: leave now. A local run stops waiting for its jobs
   * (they stay journaled, for `resume`). Unset in tests that never interrupt.
   */
  forceSignal?: AbortSignal;
  /**
   * Aborted when the reader of stdout or stderr goes away (EPIPE, a closed terminal). A local
   * run then stops as on the first Ctrl-C, or goes on with `--on-closed-output continue`;
   * nothing more is written to the closed stream either way. Unset in tests that never close.
   */
  outputClosed?: AbortSignal;
  /** Values that must never be printed (API keys); every output is redacted against them. */
  secrets: Set<string>;
  /** Print stack traces and causes of errors. */
  debug: boolean;
  /**
   * The process's own stdin and stdout, for a command that speaks a protocol on them
   * (`mcp`); unset in tests that call commands in-process.
   */
  stdio?: { stdin: Readable; stdout: Writable };
  /** The provider profile named with `--config` (else `REELSMITH_CONFIG`, else one is looked for). */
  config?: string;
}

/**
 * Remember a secret so that every later output redacts it.
 *
 * @example
 * addSecret(context, connection.apiKey);
 */
export function addSecret(context: CliContext, secret: string | undefined): void {
  if (secret) context.secrets.add(secret);
}

import type { CliContext } from "../context.js";
import type { RunSessions } from "./run-sessions.js";
import type { SpendingLimits } from "./spending-limits.js";

/** Flags of `reelsmith mcp`: the limits no tool call can lift, and the service. */
export interface McpFlags {
  /** Credits one run may spend in all. */
  maxCredits?: number;
  /** Credits every paid call of the server may spend together. */
  maxTotalCredits?: number;
  /** Let the `approve` and `reject` tools decide gates. */
  allowApprove?: boolean;
  baseUrl?: string;
  apiKey?: string;
}

/** What every tool of the server works with. */
export interface McpDeps {
  /** The server's context: its stdout is the protocol's, so nothing here prints there. */
  context: CliContext;
  flags: McpFlags;
  limits: SpendingLimits;
  sessions: RunSessions;
}

/**
 * The service flags of the server, for the CLI's calls.
 * @example executeRun({ ...serviceFlags(deps.flags), pipeline }, context)
 */
export function serviceFlags(flags: McpFlags): { baseUrl?: string; apiKey?: string } {
  return {
    ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
  };
}

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { cliVersion } from "../cli-version.js";
import type { CliContext } from "../context.js";
import { ExitCode, UsageError } from "../errors/cli-error.js";
import { registerBatchTools } from "./batch-tools.js";
import { registerDecideTools } from "./decide-tools.js";
import { registerInspectTools } from "./inspect-tools.js";
import type { McpDeps, McpFlags } from "./mcp-deps.js";
import { mcpInstructions } from "./mcp-instructions.js";
import { registerResources } from "./mcp-resources.js";
import { createRunSessions } from "./run-sessions.js";
import { registerRunTools } from "./run-tools.js";
import { createSpendingLimits } from "./spending-limits.js";
import { registerTakeTools } from "./take-tools.js";

/**
 * The MCP server of reelsmith: its tools (validate, plan, run, status, resume, cancel,
 * retake, pick, approve, reject, models, report), resources and instructions, over the same
 * calls the CLI's commands make.
 *
 * @example
 * const server = createMcpServer({ context, flags, limits, sessions });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer(
    { name: "reelsmith", version: cliVersion() },
    {
      instructions: mcpInstructions(deps.flags),
      capabilities: { tools: {}, resources: {} },
    },
  );
  registerInspectTools(server, deps);
  registerRunTools(server, deps);
  registerBatchTools(server, deps);
  registerTakeTools(server, deps);
  registerDecideTools(server, deps);
  registerResources(server, deps);
  return server;
}

/**
 * `reelsmith mcp`: serve MCP over the process's stdin and stdout until stdin ends or the
 * process is interrupted; then the runs it started are stopped gently (their paid jobs are
 * waited for; a second Ctrl-C leaves them to `resume`) and it returns 0. Nothing but the
 * protocol is written on stdout: every other line goes to stderr.
 *
 * @example
 * const code = await mcpCommand({ maxCredits: 100, maxTotalCredits: 300 }, context);
 */
export async function mcpCommand(flags: McpFlags, context: CliContext): Promise<number> {
  const stdio = context.stdio;
  if (!stdio) {
    throw new UsageError("mcp needs the process's stdin and stdout", {
      code: "mcp_without_stdio",
      hint: "start it as a process of its own: reelsmith mcp",
    });
  }
  for (const [name, value] of [
    ["--max-credits", flags.maxCredits],
    ["--max-total-credits", flags.maxTotalCredits],
  ] as const) {
    if (value !== undefined && (!Number.isFinite(value) || value <= 0)) {
      throw new UsageError(`${name} must be a number of credits above 0`, {
        code: "invalid_limit",
      });
    }
  }
  // The protocol owns stdout: whatever the CLI's calls print goes to stderr.
  const serverContext: CliContext = { ...context, stdout: context.stderr };
  const limits = createSpendingLimits({
    ...(flags.maxCredits === undefined ? {} : { maxCredits: flags.maxCredits }),
    ...(flags.maxTotalCredits === undefined ? {} : { maxTotalCredits: flags.maxTotalCredits }),
  });
  const sessions = createRunSessions(serverContext);
  const server = createMcpServer({ context: serverContext, flags, limits, sessions });
  const transport = new StdioServerTransport(stdio.stdin, stdio.stdout);
  const ended = new Promise<void>((resolve) => {
    stdio.stdin.once("end", () => resolve());
    stdio.stdin.once("close", () => resolve());
    if (context.signal.aborted) resolve();
    else context.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.connect(transport);
  context.stderr.write(
    `reelsmith mcp: serving on stdio${flags.maxCredits === undefined ? "" : `, at most ${flags.maxCredits} credits a run`}${flags.maxTotalCredits === undefined ? "" : `, ${flags.maxTotalCredits} in all`}${flags.allowApprove ? ", gates may be decided" : ""}\n`,
  );
  await ended;
  await sessions.stopAll();
  await server.close();
  return ExitCode.ok;
}

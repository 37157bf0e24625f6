import type { Command } from "commander";
import { parsePositiveInteger } from "../commands/option-parsers.js";
import { serviceOptions } from "../commands/run-command.js";
import type { CliContext } from "../context.js";
import type { McpFlags } from "./mcp-deps.js";

/**
 * Declare `mcp` on the program (the server loads on use).
 *
 * @example
 * registerMcpCommand(program, context, (code) => (exitCode = code));
 */
export function registerMcpCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("mcp")
    .summary("serve the Model Context Protocol on stdio, for coding agents")
    .description(
      "Serve reelsmith to a coding agent (Claude Code, Cursor, Codex…) over the Model Context Protocol on stdin/stdout: tools to validate, plan, run, watch, retake, pick, resume, cancel, approve and report; runs go on in the background and write normal run directories. The limits set here cannot be lifted by the agent: every paid call gets min(what it asks, --max-credits, what is left of --max-total-credits), and a call whose certain cost is over that is refused before anything is sent. Gates are decided only with --allow-approve.",
    )
    .option("--max-credits <n>", "credits one run may spend, at most", parsePositiveInteger)
    .option(
      "--max-total-credits <n>",
      "credits every run this server starts may spend together, at most",
      parsePositiveInteger,
    )
    .option("--allow-approve", "let the agent approve or reject the gates runs wait at")
    .addOption(serviceOptions.baseUrl())
    .addOption(serviceOptions.apiKey())
    .addHelpText(
      "after",
      "\nExamples:\n  claude mcp add reelsmith -- npx -y @reelsmith/cli mcp --max-credits 200 --max-total-credits 1000\n  reelsmith mcp --max-credits 50 --allow-approve",
    )
    .action(async (flags: McpFlags) => {
      // Loaded on use: the MCP SDK is needed by this command only.
      const { mcpCommand } = await import("./mcp-server.js");
      done(await mcpCommand(flags, context));
    });
}

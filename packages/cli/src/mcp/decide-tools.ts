import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { McpDeps } from "./mcp-deps.js";
import { decideOutput } from "./output-schemas.js";
import { readRunStatus, resolveRunDir } from "./run-status.js";
import { grantResume, maxCreditsSchema, refuseBusy, resumeInBackground } from "./run-tools.js";
import { RefusalError, toolHandler } from "./tool-result.js";

/**
 * The tools that decide the gate a run waits at: approve (with `continue`, the run goes on
 * within a grant) and reject. Refused unless the server was started with `--allow-approve`.
 * @example registerDecideTools(server, deps);
 */
export function registerDecideTools(server: McpServer, deps: McpDeps): void {
  const { context } = deps;
  for (const approved of [true, false]) {
    const verb = approved ? "approve" : "reject";
    server.registerTool(
      verb,
      {
        title: approved ? "Approve a waiting gate" : "Reject a waiting gate",
        description: `${approved ? "Approve" : "Reject"} the gate (an \`approve:\` step) a run waits at, journaled with who, when and why, as \`reelsmith ${verb}\` does (the CLI's status and report show it). ${approved ? "With `continue`, the run goes on in the background within a grant, priced and refused like `run`; else call `resume`." : "Resuming then ends the run `rejected` without running what is behind the gate."} Only when the server was started with --allow-approve; otherwise refused (the person who started the server decides).`,
        inputSchema: {
          run: z.string().describe("the run's directory or id"),
          step: z.string().optional().describe("the gate, when the run waits at several"),
          note: z.string().optional().describe("why (journaled, shown by status and the report)"),
          by: z.string().optional().describe("who decides (default `mcp`)"),
          ...(approved
            ? {
                continue: z.boolean().optional().describe("then resume the run at once"),
                maxCredits: maxCreditsSchema,
              }
            : {}),
        },
        outputSchema: decideOutput,
      },
      toolHandler(
        async (args: {
          run: string;
          step?: string;
          note?: string;
          by?: string;
          continue?: boolean;
          maxCredits?: number;
        }) => {
          if (!deps.flags.allowApprove) {
            // The run as a terminal names it (its directory) when it can be found.
            let shown = args.run;
            try {
              shown = resolveRunDir(args.run, deps.sessions, context.cwd);
            } catch {
              // Named as given: the refusal is about the permission, not the run.
            }
            throw new RefusalError({
              code: "approval_not_allowed",
              message: `this server may not ${verb} gates: it was started without --allow-approve`,
              hint: `the person who started the server decides: \`reelsmith ${verb} ${shown}\` in a terminal, or starts the server with --allow-approve`,
              alternatives: [
                {
                  tool: "status",
                  arguments: { run: shown },
                  why: "shows the gate, what it shows and what approving costs, to tell the person",
                },
                {
                  tool: "report",
                  arguments: { run: shown },
                  why: "a page the person can review before deciding",
                },
              ],
            });
          }
          const runDir = resolveRunDir(args.run, deps.sessions, context.cwd);
          refuseBusy(deps, runDir);
          // Priced before the decision is journaled: a refused continuation decides nothing.
          const grant =
            approved && args.continue
              ? await grantResume(deps, runDir, args.maxCredits, "going on past the gate")
              : undefined;
          // What approving starts, as the gate priced it (the same figure `status` shows).
          const costs = approved ? readRunStatus(runDir).approvingCosts : undefined;
          const { decideApproval } = await import("@reelsmith/runner/runs");
          const { step, decision } = await decideApproval(runDir, {
            approved,
            by: args.by?.trim() || "mcp",
            ...(args.step ? { step: args.step } : {}),
            ...(args.note ? { note: args.note } : {}),
          });
          const decided = {
            runDir,
            step,
            approved: decision.approved,
            by: decision.by,
            at: decision.at,
            ...(decision.note ? { note: decision.note } : {}),
            ...(costs ? { approvingCosts: costs } : {}),
          };
          if (grant) {
            const resumed = await resumeInBackground(deps, "approve", runDir, grant);
            return {
              ...resumed,
              ...decided,
              status: String(resumed.status),
              next: String(resumed.next),
            };
          }
          return {
            ...decided,
            status: "waiting",
            next: approved
              ? "call `resume` to run what is behind the gate"
              : "call `resume` to end the run rejected (nothing behind the gate runs)",
          };
        },
      ),
    );
  }
}

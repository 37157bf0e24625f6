import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { asTakeUsageError } from "../commands/take-options.js";
import { executeTake } from "../commands/take-service.js";
import { type McpDeps, serviceFlags } from "./mcp-deps.js";
import { startedOutput } from "./output-schemas.js";
import { grantPaidCall } from "./paid-call.js";
import { priceTake } from "./price-call.js";
import { resolveRunDir } from "./run-status.js";
import { maxCreditsSchema, refuseBusy, startPaid } from "./run-tools.js";
import { spentOf } from "./spending-limits.js";
import { toolHandler } from "./tool-result.js";

/**
 * The tools that change one item of a run: retake (one new, paid job) and pick (free).
 * @example registerTakeTools(server, deps);
 */
export function registerTakeTools(server: McpServer, deps: McpDeps): void {
  const { context } = deps;
  const item = z.number().int().min(0).optional().describe("the item of a for_each step, from 0");
  server.registerTool(
    "retake",
    {
      title: "Retake one item",
      description:
        "Make a new take of one item of a finished, failed or budget-stopped run (one new, paid job, never from the cache), optionally with a new prompt, params or seed, then rebuild what depends on it (the joined video, captions…) in the background. Every take is kept; `pick` puts one back for free. Priced and refused like `run`.",
      inputSchema: {
        run: z.string().describe("the run's directory or id"),
        step: z.string().describe("the step whose item is made again, e.g. clips"),
        item,
        prompt: z.string().optional().describe("a new prompt (else the picked take's)"),
        params: z
          .record(z.unknown())
          .optional()
          .describe('params over the picked take\'s, e.g. { "negative_prompt": "blurry" }'),
        seed: z.number().int().optional().describe("the param `seed`"),
        maxCredits: maxCreditsSchema,
      },
      outputSchema: startedOutput,
    },
    toolHandler(
      async (args: {
        run: string;
        step: string;
        item?: number;
        prompt?: string;
        params?: Record<string, unknown>;
        seed?: number;
        maxCredits?: number;
      }) => {
        const runDir = resolveRunDir(args.run, deps.sessions, context.cwd);
        refuseBusy(deps, runDir);
        const params = {
          ...(args.params ?? {}),
          ...(args.seed === undefined ? {} : { seed: args.seed }),
        };
        const request = {
          step: args.step,
          ...(args.item === undefined ? {} : { index: args.item }),
          ...(args.prompt === undefined ? {} : { prompt: args.prompt }),
          ...(Object.keys(params).length === 0 ? {} : { params }),
        };
        // The runner's own check first: a bad step or item is refused before it is priced.
        const runner = await import("@reelsmith/runner/internal");
        await runner.checkRetake(runDir, request).catch(async (error: unknown) => {
          throw await asTakeUsageError(error, runDir, args.run, context);
        });
        const price = await priceTake(runDir, args.step, serviceFlags(deps.flags), context);
        const unit = `${args.step}${args.item === undefined ? "" : ` #${args.item}`}`;
        const grant = await grantPaidCall(
          deps.limits,
          {
            what: `the retake of ${unit}`,
            spent: spentOf(runDir),
            estimate: price.credits,
            ...(args.maxCredits === undefined ? {} : { asked: args.maxCredits }),
            ...(price.own === undefined ? {} : { own: price.own }),
          },
          async () => [],
        );
        const result = await startPaid(deps, "retake", grant, runDir, (runContext, notifier) =>
          executeTake(
            runDir,
            {
              ...serviceFlags(deps.flags),
              ...(grant.budget === undefined ? {} : { maxCredits: grant.budget }),
              notifier,
            },
            runContext,
            { retake: request },
          ),
        );
        return { ...result, estimate: price.credits };
      },
    ),
  );
  server.registerTool(
    "pick",
    {
      title: "Pick a take",
      description:
        "Choose which take of an item later steps use (take 1 is what the run first made; retakes are 2, 3…): its kept file is put back, the pick journaled, and what depends on it rebuilt in the background. No job is paid for.",
      inputSchema: {
        run: z.string().describe("the run's directory or id"),
        step: z.string().describe("the step of the item"),
        item,
        take: z.number().int().min(1).describe("the take to use, from 1"),
      },
      outputSchema: startedOutput,
    },
    toolHandler(async (args: { run: string; step: string; item?: number; take: number }) => {
      const runDir = resolveRunDir(args.run, deps.sessions, context.cwd);
      refuseBusy(deps, runDir);
      const request = {
        step: args.step,
        ...(args.item === undefined ? {} : { index: args.item }),
        take: args.take,
      };
      const runner = await import("@reelsmith/runner/internal");
      await runner.checkPick(runDir, request).catch(async (error: unknown) => {
        throw await asTakeUsageError(error, runDir, args.run, context);
      });
      return startPaid(deps, "pick", undefined, runDir, (runContext, notifier) =>
        executeTake(runDir, { ...serviceFlags(deps.flags), notifier }, runContext, {
          pick: request,
        }),
      );
    }),
  );
}

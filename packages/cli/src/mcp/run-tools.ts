import path from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { executeRun } from "../commands/execute-run.js";
import { takeService } from "../commands/take-service.js";
import { type McpDeps, serviceFlags } from "./mcp-deps.js";
import { cancelOutput, startedOutput } from "./output-schemas.js";
import { grantPaidCall } from "./paid-call.js";
import { priceNewRun, priceResume } from "./price-call.js";
import type { RunSession, SessionBody, SessionKind } from "./run-sessions.js";
import { resolveRunDir } from "./run-status.js";
import { smallerRuns } from "./smaller-runs.js";
import type { Grant } from "./spending-limits.js";
import { spentOf } from "./spending-limits.js";
import { RefusalError, toolHandler } from "./tool-result.js";

/**
 * The per-call budget an agent may ask for (never above the server's limits).
 * @example inputSchema: { run: z.string(), maxCredits: maxCreditsSchema }
 */
export const maxCreditsSchema = z
  .number()
  .int()
  .positive()
  .optional()
  .describe(
    "the run's budget in credits (what it spent counts); capped by the server's --max-credits and what is left of --max-total-credits",
  );

const NEXT = "poll `status` with the runId until its status is no longer `running`";

/**
 * Start a session that holds its grant until it ends, and say what started.
 * @example return startPaid(deps, "run", grant, undefined, (ctx, notifier) => executeRun(…));
 */
export async function startPaid(
  deps: McpDeps,
  kind: SessionKind,
  grant: Grant | undefined,
  runDir: string | undefined,
  body: SessionBody,
): Promise<Record<string, unknown>> {
  const hold = grant ? deps.limits.hold(grant, runDir) : undefined;
  let session: RunSession;
  try {
    session = await deps.sessions.start(kind, body, {
      onStart: (dir) => hold?.attach(dir),
      onEnd: () => hold?.end(),
    });
  } catch (error) {
    hold?.end();
    throw error;
  }
  return started(session, grant);
}

/** What a started session says at once. */
function started(session: RunSession, grant: Grant | undefined): Record<string, unknown> {
  const ended = session.state === "ended";
  return {
    ...(session.runId ? { runId: session.runId } : {}),
    ...(session.runDir ? { runDir: session.runDir } : {}),
    status: ended ? (session.status ?? "ended") : "running",
    ...(grant?.budget === undefined ? {} : { budget: grant.budget }),
    ...(ended && session.error ? { error: session.error } : {}),
    next: ended ? "call `status` for the outcome" : NEXT,
  };
}

/**
 * Refuse a call on a run this server drives now (one process drives a run at a time).
 * @example refuseBusy(deps, runDir);
 */
export function refuseBusy(deps: McpDeps, runDir: string): void {
  const session = deps.sessions.find({ runDir });
  if (session?.state !== "running") return;
  throw new RefusalError({
    code: "run_in_progress",
    message: `${runDir} is still running here; wait for it to end or stop it first`,
    alternatives: [
      { tool: "status", arguments: { run: runDir }, why: "shows when it ends" },
      { tool: "cancel", arguments: { run: runDir }, why: "stops it gently" },
    ],
  });
}

/**
 * Go on with a stopped run on its own service, within a grant (resume, and approve with
 * `continue`): the CLI's resume path, in the background.
 * @example return resumeInBackground(deps, "resume", runDir, grant);
 */
export function resumeInBackground(
  deps: McpDeps,
  kind: SessionKind,
  runDir: string,
  grant: Grant,
): Promise<Record<string, unknown>> {
  const flags = serviceFlags(deps.flags);
  return startPaid(deps, kind, grant, runDir, async (context, notifier) => {
    const target = await takeService(runDir, flags, context, { needsService: true });
    return executeRun(
      {
        ...flags,
        ...target,
        ...(grant.budget === undefined ? {} : { maxCredits: grant.budget }),
        notifier,
      },
      context,
    );
  });
}

/**
 * The price and grant of going on with a run on disk; refused before anything is sent when
 * the certain part of what is left is over what it may spend.
 * @example const grant = await grantResume(deps, runDir, 50, "the resume");
 */
export async function grantResume(
  deps: McpDeps,
  runDir: string,
  asked: number | undefined,
  what: string,
): Promise<Grant> {
  const priced = await priceResume(runDir, serviceFlags(deps.flags), deps.context);
  return grantPaidCall(
    deps.limits,
    {
      what,
      spent: spentOf(runDir),
      estimate: priced.estimate.credits,
      complete: priced.estimate.complete,
      ...(asked === undefined ? {} : { asked }),
      ...(priced.own === undefined ? {} : { own: priced.own }),
    },
    async () => [],
  );
}

/**
 * The tools that start and stop runs: run, resume, cancel.
 * @example registerRunTools(server, deps);
 */
export function registerRunTools(server: McpServer, deps: McpDeps): void {
  registerRunTool(server, deps);
  registerResumeTool(server, deps);
  registerCancelTool(server, deps);
}

/** The `run` tool. */
function registerRunTool(server: McpServer, deps: McpDeps): void {
  const { context } = deps;
  server.registerTool(
    "run",
    {
      title: "Start a run",
      description:
        "Start a run of a pipeline in the background and return its runId and runDir at once; poll `status`. Checked and priced first: an invalid pipeline, bad inputs, or an estimate whose certain part is over what the run may spend (its budget, the server's --max-credits, what is left of --max-total-credits) is refused before anything is sent, with `alternatives` that fit (e.g. fewer scenes, a cheaper model). The runner's budget then holds the run to the same limit. A run reaching a gate stops with status `waiting`.",
      inputSchema: {
        pipeline: z.string().describe("the pipeline file, relative to the server's directory"),
        inputs: z.record(z.unknown()).optional().describe("the pipeline's inputs by name"),
        maxCredits: maxCreditsSchema,
        runDir: z.string().optional().describe("the run directory (default runs/<time>-<name>)"),
        cache: z.boolean().optional().describe("reuse and store cached results (default true)"),
      },
      outputSchema: startedOutput,
    },
    toolHandler(
      async (args: {
        pipeline: string;
        inputs?: Record<string, unknown>;
        maxCredits?: number;
        runDir?: string;
        cache?: boolean;
      }) => {
        const flags = serviceFlags(deps.flags);
        const given = args.inputs ?? {};
        const priced = await priceNewRun(
          args.pipeline,
          given,
          { ...flags, cache: args.cache !== false },
          context,
        );
        const grant = await grantPaidCall(
          deps.limits,
          {
            what: "the run",
            spent: 0,
            estimate: priced.estimate.credits,
            complete: priced.estimate.complete,
            ...(args.maxCredits === undefined ? {} : { asked: args.maxCredits }),
            ...(priced.pipeline.spec.max_credits === undefined
              ? {}
              : { own: priced.pipeline.spec.max_credits }),
          },
          (allowance) =>
            smallerRuns({
              file: args.pipeline,
              pipeline: priced.pipeline,
              given,
              inputs: priced.inputs,
              ...(priced.catalogs ? { catalogs: priced.catalogs } : {}),
              limit: allowance,
              call: args.maxCredits === undefined ? {} : { maxCredits: args.maxCredits },
            }),
        );
        const result = await startPaid(deps, "run", grant, undefined, (runContext, notifier) =>
          executeRun(
            {
              ...flags,
              pipeline: args.pipeline,
              inputs: given,
              cache: args.cache !== false,
              ...(args.runDir ? { runDir: args.runDir } : {}),
              ...(grant.budget === undefined ? {} : { maxCredits: grant.budget }),
              notifier,
            },
            runContext,
          ),
        );
        return {
          ...result,
          estimate: priced.estimate.credits,
          estimateComplete: priced.estimate.complete,
        };
      },
    ),
  );
}

/** The `resume` tool. */
function registerResumeTool(server: McpServer, deps: McpDeps): void {
  const { context } = deps;
  server.registerTool(
    "resume",
    {
      title: "Resume a stopped run",
      description:
        "Continue a run stopped in any way (cancel, a failure, budget_reached, an approved or rejected gate) in the background: finished steps and clips are reused, submitted jobs re-attached, never paid twice. Priced and refused like `run`.",
      inputSchema: {
        run: z.string().describe("the run's directory or id"),
        maxCredits: maxCreditsSchema,
      },
      outputSchema: startedOutput,
    },
    toolHandler(async (args: { run: string; maxCredits?: number }) => {
      const runDir = resolveRunDir(args.run, deps.sessions, context.cwd);
      refuseBusy(deps, runDir);
      const grant = await grantResume(deps, runDir, args.maxCredits, "the resume");
      return resumeInBackground(deps, "resume", runDir, grant);
    }),
  );
}

/** The `cancel` tool. */
function registerCancelTool(server: McpServer, deps: McpDeps): void {
  const { context } = deps;
  server.registerTool(
    "cancel",
    {
      title: "Stop a run gently",
      description:
        "Stop a run this server started, as a first Ctrl-C does: nothing new starts, the video jobs already paid for are waited for, and the run ends `cancelled` (resumable with `resume`). Poll `status` until it is no longer `running`.",
      inputSchema: {
        run: z.string().describe("the run's directory or id (or a batch's, as `batch` returned)"),
      },
      outputSchema: cancelOutput,
    },
    toolHandler(async ({ run }: { run: string }) => {
      const runDir = resolveRunDir(run, deps.sessions, context.cwd, { batches: true });
      const session = deps.sessions.find({ runDir });
      if (session?.state !== "running") {
        throw new RefusalError({
          code: "not_running_here",
          message: `${path.basename(runDir)} is not running in this server; only a run it started can be stopped here`,
          hint: "a run started from a terminal stops with Ctrl-C there",
          alternatives: [
            { tool: "status", arguments: { run: runDir }, why: "shows where it stands" },
          ],
        });
      }
      session.stop();
      return {
        ...(session.runId ? { runId: session.runId } : {}),
        runDir,
        stopping: true,
        next: "poll `status` until it is no longer `running`; `resume` continues it",
      };
    }),
  );
}

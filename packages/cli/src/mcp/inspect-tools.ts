import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { makePlan } from "../commands/make-plan.js";
import { listModels } from "../commands/models-command.js";
import { writeRunReport } from "../commands/report-command.js";
import { validateFiles } from "../commands/validate-command.js";
import { type McpDeps, serviceFlags } from "./mcp-deps.js";
import {
  modelsOutput,
  planOutput,
  reportOutput,
  statusOutput,
  validateOutput,
} from "./output-schemas.js";
import { refuseInvalid } from "./price-call.js";
import { type RunStatus, readRunStatus, resolveRunDir } from "./run-status.js";
import { toolHandler } from "./tool-result.js";

const inputsSchema = z
  .record(z.unknown())
  .optional()
  .describe('the pipeline\'s inputs by name, e.g. { "scenes": 3 } (defaults fill the rest)');

/**
 * What the server has spent and may still spend.
 * @example serverSpending(deps) // { spent: 27, ceiling: 30, left: 273 }
 */
export function serverSpending(deps: McpDeps) {
  const left = deps.limits.left();
  const { maxCredits } = deps.limits.ceiling;
  return {
    spent: deps.limits.spent(),
    ...(maxCredits === undefined ? {} : { ceiling: maxCredits }),
    ...(left === undefined ? {} : { left }),
  };
}

/**
 * A run's status in a few sentences (for `report` and clients that read text).
 * @example summarize(readRunStatus(dir)) // "storyboard 2026…: succeeded; spent 36 credits; …"
 */
export function summarize(status: RunStatus): string {
  const lines = [
    `${status.name ?? "run"} ${status.runId}: ${status.status}; spent ${status.spent} credits${status.estimate ? ` (estimated ${status.estimate.complete ? "" : "at least "}${status.estimate.credits})` : ""}${status.budget === undefined ? "" : `, budget ${status.budget}`}`,
  ];
  for (const step of status.steps) {
    const items =
      step.succeeded + step.failed + step.running > 1
        ? ` (${step.succeeded} done, ${step.failed} failed, ${step.running} running)`
        : "";
    lines.push(`  ${step.id}: ${step.status}${items}`);
  }
  for (const gate of status.waitingAt)
    lines.push(`waiting for approval at ${gate.step}: ${gate.message}`);
  for (const gate of status.gates.filter((entry) => entry.state !== "waiting"))
    lines.push(
      `gate ${gate.step} ${gate.state} by ${gate.by} at ${gate.at}${gate.note ? ` (${gate.note})` : ""}`,
    );
  if (status.video) lines.push(`final video: ${status.video}`);
  if (status.error) lines.push(`error: ${status.error.message}`);
  return lines.join("\n");
}

/** The newest runs under the server's runs/ and those it started, newest first. */
function listRuns(deps: McpDeps) {
  const dirs = new Set<string>();
  for (const session of deps.sessions.all()) if (session.runDir) dirs.add(session.runDir);
  const runs = path.join(deps.context.cwd, "runs");
  if (existsSync(runs)) {
    for (const name of readdirSync(runs)) {
      if (existsSync(path.join(runs, name, "journal.jsonl"))) dirs.add(path.join(runs, name));
    }
  }
  return [...dirs]
    .sort()
    .reverse()
    .slice(0, 30)
    .map((dir) => {
      const status = readRunStatus(dir, deps.sessions.find({ runDir: dir }));
      return {
        runId: status.runId,
        runDir: dir,
        name: status.name,
        status: status.status,
        spent: status.spent,
      };
    });
}

/**
 * The tools that read and pay nothing: validate, plan, models, status, report.
 * @example registerInspectTools(server, deps);
 */
export function registerInspectTools(server: McpServer, deps: McpDeps): void {
  registerValidateTool(server, deps);
  registerPlanTool(server, deps);
  registerModelsTool(server, deps);
  registerStatusTool(server, deps);
  registerReportTool(server, deps);
}

/** The `validate` tool. */
function registerValidateTool(server: McpServer, deps: McpDeps): void {
  const { context } = deps;
  server.registerTool(
    "validate",
    {
      title: "Validate pipeline files",
      description:
        "Check pipeline YAML files (schema, references, model limits) without running them. Each problem comes with its file, 1-based line and column, a stable code and a hint. Free.",
      inputSchema: {
        files: z
          .array(z.string())
          .min(1)
          .describe("pipeline files, relative to the server's directory"),
      },
      outputSchema: validateOutput,
    },
    toolHandler(async ({ files }: { files: string[] }) => {
      const result = await validateFiles(files, context);
      const shown = result.files.map((entry) => ({
        file: entry.file,
        ok: !entry.diagnostics.some((d) => d.severity === "error"),
        diagnostics: entry.diagnostics.map(({ sourceLine: _line, ...diagnostic }) => diagnostic),
      }));
      const all = shown.flatMap((entry) => entry.diagnostics);
      const errors = all.filter((d) => d.severity === "error").length;
      return {
        ok: errors === 0,
        errors,
        warnings: all.length - errors + result.profileWarnings.length,
        profileWarnings: result.profileWarnings,
        files: shown,
      };
    }),
  );
}

/** The `plan` tool. */
function registerPlanTool(server: McpServer, deps: McpDeps): void {
  const { context } = deps;
  server.registerTool(
    "plan",
    {
      title: "Plan a run",
      description:
        "What a run of a pipeline would do, before anything is paid: the stages (steps that run together), fan-outs, each step's estimate (per unit × units), the run's estimate (`credits` is its certain part; `complete` false when fan-out sizes are known only at run time), the problems that would refuse it, and whether it fits the budget this server allows (`fits`).",
      inputSchema: { pipeline: z.string().describe("the pipeline file"), inputs: inputsSchema },
      outputSchema: planOutput,
    },
    toolHandler(async (args: { pipeline: string; inputs?: Record<string, unknown> }) => {
      await refuseInvalid(args.pipeline, context);
      const notes: string[] = [];
      const { plan, pipeline } = await makePlan(
        args.pipeline,
        { given: args.inputs ?? {}, ...serviceFlags(deps.flags) },
        context,
        (line) => notes.push(line),
      );
      const grant = deps.limits.grant({ spent: 0, own: pipeline.spec.max_credits });
      const estimate = plan.limits.estimate;
      return {
        name: plan.name,
        stages: plan.stages,
        steps: plan.steps.map((step) => ({
          id: step.id,
          kind: step.kind,
          stage: step.stage,
          dependsOn: step.dependsOn,
          ...(step.fanOut ? { fanOut: step.fanOut } : {}),
          ...(step.model ? { model: step.model } : {}),
          ...(step.estimate ? { estimate: step.estimate } : {}),
          pending: step.request.pending,
        })),
        problems: plan.problems,
        notes: [...plan.notes, ...notes],
        estimate,
        // A count known only at run time is null (JSON has no undefined).
        requests: Object.fromEntries(
          Object.entries(plan.limits.requests).map(([name, count]) => [name, count ?? null]),
        ),
        requestLabels: plan.limits.requestLabels,
        ...(grant.budget === undefined ? {} : { budget: grant.budget }),
        ...(grant.ceiling === undefined ? {} : { ceiling: grant.ceiling }),
        ...(grant.left === undefined ? {} : { left: grant.left }),
        fits:
          plan.problems.length === 0 &&
          (grant.budget === undefined || estimate.credits <= grant.budget),
      };
    }),
  );
}

/** The `models` tool. */
function registerModelsTool(server: McpServer, deps: McpDeps): void {
  const { context } = deps;
  server.registerTool(
    "models",
    {
      title: "List the service's models",
      description:
        "The chat models the service offers and the video models with their limits (seconds, sizes) and prices, as the provider profile, the service or the built-in simulator declares them. One free request.",
      inputSchema: {},
      outputSchema: modelsOutput,
    },
    toolHandler(async () => {
      const listing = await listModels(serviceFlags(deps.flags), context);
      return {
        baseURL: listing.baseURL,
        builtIn: listing.builtIn,
        chatModels: [
          ...new Set([...listing.chatModels.map((model) => model.id), ...listing.kindUnknown]),
        ],
        videoModels: listing.videoModels,
        ...(listing.profile ? { profile: listing.profile } : {}),
      };
    }),
  );
}

/** The `status` tool. */
function registerStatusTool(server: McpServer, deps: McpDeps): void {
  const { context } = deps;
  server.registerTool(
    "status",
    {
      title: "Where a run stands",
      description:
        "A run's status (`running` while a process drives it; else succeeded, failed, waiting, budget_reached, rejected, cancelled, interrupted), each step's progress, credits spent, the estimate and budget, the gate it waits at (and what approving costs), its outputs and the final video's path once it exists. Of a batch directory (as `batch` returned): each row's status, credits, run directory and final video (`finals`). Read from the run's files, so runs started from a terminal show too. Without `run`: the newest runs. Free; poll it while a run goes on.",
      inputSchema: {
        run: z.string().optional().describe("the run's directory or id (as `run` returned)"),
      },
      outputSchema: statusOutput,
    },
    toolHandler(
      async ({ run }: { run?: string }) => {
        const server = serverSpending(deps);
        if (run === undefined) return { runs: listRuns(deps), server };
        const runDir = resolveRunDir(run, deps.sessions, context.cwd, { batches: true });
        if (existsSync(path.join(runDir, "batch.jsonl"))) {
          const { readBatchStatus, summarizeBatch } = await import("./batch-tools.js");
          const status = await readBatchStatus(runDir, deps.sessions.find({ runDir }));
          return { ...status, summary: summarizeBatch(status), server };
        }
        const status = readRunStatus(runDir, deps.sessions.find({ runDir }));
        return { ...status, summary: summarize(status), server };
      },
      (result) =>
        typeof result.summary === "string" ? result.summary : JSON.stringify(result, null, 2),
    ),
  );
}

/** The `report` tool. */
function registerReportTool(server: McpServer, deps: McpDeps): void {
  const { context } = deps;
  server.registerTool(
    "report",
    {
      title: "Write a run's report",
      description:
        "(Re)write the run's report.html (storyboard, timeline, costs, gates, takes; works while the run goes on) and return its path with a text summary of the run.",
      inputSchema: { run: z.string().describe("the run's directory or id") },
      outputSchema: reportOutput,
    },
    toolHandler(async ({ run }: { run: string }) => {
      const runDir = resolveRunDir(run, deps.sessions, context.cwd);
      const notes: string[] = [];
      const report = await writeRunReport(runDir, context, (line) => notes.push(line));
      const status = readRunStatus(runDir, deps.sessions.find({ runDir }));
      if (!report)
        throw Object.assign(new Error(notes.join("; ") || "the report could not be written"), {
          code: "report_failed",
        });
      return { report, summary: summarize(status), status: status.status, notes };
    }),
  );
}

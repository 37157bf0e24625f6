import { existsSync } from "node:fs";
import path from "node:path";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { BatchEstimate } from "@reelsmith/runner/batch";
import { z } from "zod";
import { loadValidPipeline } from "../commands/load-valid-pipeline.js";
import { displayPath } from "../render/display-path.js";
import { runCache } from "../services/run-cache.js";
import { type McpDeps, serviceFlags } from "./mcp-deps.js";
import { startedOutput } from "./output-schemas.js";
import { grantPaidCall } from "./paid-call.js";
import { refuseInvalid } from "./price-call.js";
import type { RunSession } from "./run-sessions.js";
import { startPaid } from "./run-tools.js";
import { spentOf } from "./spending-limits.js";
import { RefusalError, toolHandler } from "./tool-result.js";

/**
 * A batch's pipeline checked and its rows read, checked against the pipeline's inputs and
 * priced, before anything is paid (a bad row is refused by its line and field). What the cache
 * holds costs a row nothing unless `cache` is false, as when the batch runs.
 * @example const estimate = await priceBatch(deps, "pipeline.yaml", "stories.csv");
 */
export async function priceBatch(
  deps: McpDeps,
  pipelineFile: string,
  inputsFile: string,
  options: { cache?: boolean } = {},
): Promise<BatchEstimate> {
  const { context } = deps;
  const rows = path.resolve(context.cwd, inputsFile);
  if (!existsSync(rows)) {
    throw new RefusalError({
      code: "inputs_file_missing",
      message: `the inputs file ${inputsFile} does not exist (paths are relative to the server's directory, ${context.cwd})`,
      hint: "write the rows as a CSV with a header of input names, JSONL or a YAML list, then call `batch` again",
      alternatives: [],
    });
  }
  await refuseInvalid(pipelineFile, context);
  const { modelCheckSetup } = await import("../services/model-check-setup.js");
  const setup = await modelCheckSetup(serviceFlags(deps.flags), context, {
    readService: true,
    where: "the batch",
  });
  const pipeline = await loadValidPipeline(pipelineFile, context, setup);
  const { planRows } = await import("@reelsmith/runner/batch");
  const { estimate } = await planRows(pipeline, rows, {
    ...(setup.catalogs ? { catalogs: setup.catalogs } : {}),
    // What the cache holds costs a row nothing, as when this server runs the batch.
    ...(options.cache === false
      ? {}
      : { rowsCache: await runCache(serviceFlags(deps.flags), context) }),
    shown: displayPath(rows, context.cwd),
  });
  return estimate;
}

/**
 * Where a batch stands, from its batch.json and its rows' ledgers, with what this server
 * knows of it when it drives it.
 * @example const status = readBatchStatus("/work/runs/20260101-120000-storyboard-batch", session);
 */
export async function readBatchStatus(
  batchDir: string,
  session?: RunSession,
): Promise<Record<string, unknown>> {
  const { readBatchJson } = await import("@reelsmith/runner/batch");
  const batch = readBatchJson(batchDir);
  const running = session?.state === "running";
  const recorded = batch?.status ?? "running";
  const status = running ? "running" : recorded === "running" ? "interrupted" : recorded;
  const rows = (batch?.rows ?? []).map((row) => ({
    id: row.id,
    line: row.line,
    status: row.status,
    credits: row.credits,
    ...(row.durationMs === undefined ? {} : { durationMs: row.durationMs }),
    ...(row.runDir ? { runDir: path.resolve(batchDir, row.runDir) } : {}),
    ...(row.final ? { final: path.resolve(batchDir, row.final) } : {}),
    ...(row.error ? { error: row.error } : {}),
  }));
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.status] = (counts[row.status] ?? 0) + 1;
  const report = path.join(batchDir, "batch.html");
  return {
    ...(batch?.batchId ? { runId: batch.batchId, batchId: batch.batchId } : {}),
    runDir: batchDir,
    batchDir,
    batch: true,
    ...(batch?.name ? { name: batch.name } : {}),
    status,
    drivenHere: running,
    spent: spentOf(batchDir),
    ...(batch?.options.maxCredits === undefined ? {} : { budget: batch.options.maxCredits }),
    counts,
    rows,
    finals: rows.flatMap((row) => (row.final ? [row.final] : [])),
    ...(existsSync(report) ? { report } : {}),
    ...(session?.error ? { error: session.error } : {}),
    notes: session?.notes.slice(-10) ?? [],
  };
}

/** One line for clients that read text only. */
export function summarizeBatch(status: Record<string, unknown>): string {
  const counts = Object.entries((status.counts as Record<string, number>) ?? {})
    .map(([name, count]) => `${count} ${name}`)
    .join(", ");
  return `batch ${String(status.name ?? status.batchDir)}: ${String(status.status)}${counts ? ` (${counts})` : ""}, ${String(status.spent)} credits spent`;
}

/**
 * The `batch` tool: a pipeline run once per row of a file, planned first and started in the
 * background within one grant (the server's ceiling bounds the batch as one paid call).
 * @example registerBatchTools(server, deps);
 */
export function registerBatchTools(server: McpServer, deps: McpDeps): void {
  const { context } = deps;
  server.registerTool(
    "batch",
    {
      title: "Start a batch",
      description:
        "Run a pipeline once per row of an inputs file (CSV with a header of input names, JSONL, or a YAML list) in the background; returns the batch's id and directory at once, and each row's expected cost. Planned first: an invalid pipeline or a bad row (named by its line and field) is refused before anything is sent, and so is a batch whose certain total is over what it may spend — its maxCredits, the server's --max-credits (a batch is one paid call: the ceiling bounds all its rows together) and what is left of --max-total-credits. The batch's budget then bounds every row: a row is never started when its certain cost exceeds what is left. Poll `status` with the batchDir: each row's status, credits and final video. `cancel` stops it gently; a finished row is never redone or repaid.",
      inputSchema: {
        pipeline: z.string().describe("the pipeline file, relative to the server's directory"),
        inputsFile: z
          .string()
          .describe(
            "the rows: a .csv (header of input names), .jsonl or .yaml file, relative to the server's directory; an `id` column names a row",
          ),
        maxCredits: z
          .number()
          .int()
          .positive()
          .optional()
          .describe(
            "the whole batch's budget in credits; capped by the server's --max-credits and what is left of --max-total-credits",
          ),
        parallel: z
          .number()
          .int()
          .positive()
          .max(16)
          .optional()
          .describe("rows at once (default 2)"),
        cache: z.boolean().optional().describe("reuse and store cached results (default true)"),
      },
      outputSchema: startedOutput,
    },
    toolHandler(
      async (args: {
        pipeline: string;
        inputsFile: string;
        maxCredits?: number;
        parallel?: number;
        cache?: boolean;
      }) => {
        const estimate = await priceBatch(deps, args.pipeline, args.inputsFile, {
          ...(args.cache === false ? { cache: false } : {}),
        });
        const grant = await grantPaidCall(
          deps.limits,
          {
            what: `the batch of ${estimate.rows.length} rows`,
            spent: 0,
            estimate: estimate.credits,
            complete: estimate.complete,
            ...(args.maxCredits === undefined ? {} : { asked: args.maxCredits }),
          },
          async () => [],
        );
        const flags = serviceFlags(deps.flags);
        const result = await startPaid(
          deps,
          "batch",
          grant,
          undefined,
          async (batchContext, _notifier, progress) => {
            const { executeBatch } = await import("../commands/execute-batch.js");
            return executeBatch(
              {
                ...flags,
                pipeline: path.resolve(context.cwd, args.pipeline),
                inputsFile: path.resolve(context.cwd, args.inputsFile),
                ...(grant.budget === undefined ? {} : { maxCredits: grant.budget }),
                ...(args.parallel === undefined ? {} : { parallel: args.parallel }),
                ...(args.cache === false ? { cache: false } : {}),
                onEvent: (event) => {
                  if (event.type === "batch.start") progress.started(event.batchId, event.batchDir);
                  else if (event.type === "batch.end") progress.ended(event.status);
                },
              },
              batchContext,
            );
          },
        );
        return {
          ...result,
          ...(typeof result.runDir === "string" ? { batchDir: result.runDir } : {}),
          ...(typeof result.runId === "string" ? { batchId: result.runId } : {}),
          estimate: estimate.credits,
          estimateComplete: estimate.complete,
          rows: estimate.rows,
          next: "poll `status` with the batchDir until its status is no longer `running`; each row's final video is in `finals`",
        };
      },
    ),
  );
}

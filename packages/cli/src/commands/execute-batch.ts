import path from "node:path";
import type { BatchEvent, BatchResult } from "@reelsmith/runner/batch";
import type { CliContext } from "../context.js";
import { ExitCode } from "../errors/cli-error.js";
import { displayPath } from "../render/display-path.js";
import { formatBatchEvent } from "../render/format-batch.js";
import { knownModelCatalogs } from "../services/known-model-catalogs.js";
import { openService } from "../services/open-service.js";
import { serviceRunOptions, slotsOf } from "./execute-run.js";
import { keptMaxVideos } from "./max-videos.js";

/** What `batch` and `resume BATCH_DIR` pass to {@link executeBatch}. */
export interface ExecuteBatchOptions {
  /** The pipeline (a new batch). */
  pipeline?: string;
  /** The inputs file (a new batch). */
  inputsFile?: string;
  /** The batch directory to finish (resume). */
  resume?: string;
  /** A batch begun on the built-in simulator goes on on a new one. */
  builtIn?: boolean;
  parallel?: number;
  concurrency?: number;
  maxVideos?: number;
  maxCredits?: number;
  allowPartial?: boolean;
  cache?: boolean;
  autoApprove?: boolean;
  json?: boolean;
  baseUrl?: string;
  apiKey?: string;
  resubmitLost?: boolean;
  /** The shared database: every row's run goes to its workers. */
  database?: string;
  /** With `database`: the directory every worker shares (default runs); the batch goes there too. */
  artifacts?: string;
  /** Receives every event of the batch besides what is printed (the MCP server's sessions). */
  onEvent?: (event: BatchEvent) => void;
}

/**
 * Run (or finish) a batch with the runner, printing its events (NDJSON with `--json`, else one
 * plain line per row's start and end), then write `batch.html`; returns the exit code: 0 every
 * row succeeded, 1 a row failed, 3 the batch's budget stopped a row, 4 rows wait at a gate,
 * 130 interrupted (nothing new started; submitted jobs kept for `resume`).
 * @example const code = await executeBatch({ pipeline: "p.yaml", inputsFile: "rows.csv" }, context);
 */
export async function executeBatch(
  options: ExecuteBatchOptions,
  context: CliContext,
): Promise<number> {
  const json = options.json ?? false;
  const note = (line: string) => (json ? context.stderr : context.stdout).write(`${line}\n`);
  const catalogs = await knownModelCatalogs(options, context);
  const stop = new AbortController();
  const onInterrupt = () => {
    if (!stop.signal.aborted)
      note(
        "stopping: no new row starts; the rows running wait for the video jobs already submitted. Press Ctrl-C again to leave them to `reelsmith resume`.",
      );
    stop.abort();
  };
  if (context.signal.aborted) stop.abort();
  else context.signal.addEventListener("abort", onInterrupt, { once: true });
  const service = await openService(options, context, note, { builtIn: options.builtIn === true });
  let result: BatchResult;
  let onDatabase: Awaited<ReturnType<typeof startOnDatabase>> | undefined;
  try {
    const runner = await import("@reelsmith/runner/batch");
    onDatabase = options.database
      ? await startOnDatabase(options, service, catalogs, note, context)
      : undefined;
    const batchOptions = {
      runsRoot: path.resolve(context.cwd, (options.database && options.artifacts) || "runs"),
      ...(onDatabase ? { rowHost: onDatabase.rowHost } : {}),
      ...serviceRunOptions(service, context, options),
      ...(catalogs ? { catalogs } : {}),
      ...(options.parallel === undefined ? {} : { parallel: options.parallel }),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      // `--max-videos` is the limit of the video kind's queue (the kind names it); each
      // provider account's `max_concurrent_jobs` holds its own requests within it.
      ...(await slotsOf(options.maxVideos, service.accountLimits)),
      ...(options.maxCredits === undefined ? {} : { maxCredits: options.maxCredits }),
      ...(options.allowPartial ? { allowPartial: true } : {}),
      ...(options.autoApprove ? { autoApprove: true } : {}),
      stopSignal: stop.signal,
      signal: context.forceSignal ?? context.signal,
      onEvent: (event: BatchEvent) => {
        options.onEvent?.(event);
        if (json) context.stdout.write(`${JSON.stringify(event)}\n`);
        else
          for (const line of formatBatchEvent(event, context.cwd))
            context.stdout.write(`${line}\n`);
      },
    };
    result = options.resume
      ? await runner.resumeBatch(path.resolve(context.cwd, options.resume), batchOptions)
      : await runner.runBatch(options.pipeline ?? "", options.inputsFile ?? "", batchOptions);
  } finally {
    context.signal.removeEventListener("abort", onInterrupt);
    await onDatabase?.close();
    await service.close();
  }
  const shown = displayPath(result.batchDir, context.cwd);
  try {
    const { writeBatchReport } = await import("@reelsmith/report");
    const { file } = await writeBatchReport(result.batchDir, { secrets: [...context.secrets] });
    note(`report: ${displayPath(file, context.cwd)}`);
  } catch (error) {
    note(
      `could not write batch.html (${(error as Error).message}); try again with: reelsmith report ${shown}`,
    );
  }
  const code = batchExitCode(result.status);
  if (result.status === "cancelled")
    note(`interrupted; finished rows are kept. Continue with: reelsmith resume ${shown}`);
  else if (result.status === "failed")
    note(
      `some rows failed; the others finished. Retry the failed rows with: reelsmith resume ${shown}`,
    );
  else if (result.status === "budget_reached")
    note(
      `the batch's budget stopped some rows; continue with: reelsmith resume ${shown} --max-credits N`,
    );
  else if (result.status === "waiting") {
    const waiting = result.rows.filter((row) => row.status === "waiting");
    note(`${waiting.length} row${waiting.length === 1 ? "" : "s"} wait at a gate; approve each:`);
    const on = options.database ? " --database …" : "";
    for (const row of waiting) note(`  reelsmith approve ${shown} --row ${row.id}${on}`);
    note(`then: reelsmith resume ${shown}`);
  }
  return code;
}

/** The rows' host on the shared database, with the batch's budget (given, else kept). */
async function startOnDatabase(
  options: ExecuteBatchOptions,
  service: Awaited<ReturnType<typeof openService>>,
  catalogs: Awaited<ReturnType<typeof knownModelCatalogs>>,
  note: (line: string) => void,
  context: CliContext,
) {
  const { readBatchJson } = await import("@reelsmith/runner/batch");
  const kept = options.resume
    ? readBatchJson(path.resolve(context.cwd, options.resume))?.options
    : undefined;
  const maxCredits = options.maxCredits ?? kept?.maxCredits;
  const maxVideos = options.maxVideos ?? (await keptMaxVideos(kept?.slots));
  const { batchOnDatabase } = await import("../distributed/batch-on-database.js");
  return batchOnDatabase(
    {
      database: options.database as string,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      baseURL: service.builtIn ? undefined : service.baseURL,
      ...(maxCredits === undefined ? {} : { maxCredits }),
      ...(maxVideos === undefined ? {} : { maxVideos }),
      ...(options.cache === false ? { cache: false } : {}),
      ...(options.autoApprove ? { autoApprove: true } : {}),
      ...(catalogs ? { catalogs } : {}),
      // Ctrl-C stops new rows; a second one stops following (the runs go on on the workers).
      signal: context.forceSignal ?? context.signal,
      note,
    },
    context,
  );
}

/** The exit code of a batch's status. */
export function batchExitCode(status: string): number {
  switch (status) {
    case "succeeded":
      return ExitCode.ok;
    case "failed":
      return ExitCode.failed;
    case "budget_reached":
      return ExitCode.budget;
    case "waiting":
      return ExitCode.waiting;
    default:
      return ExitCode.interrupted;
  }
}

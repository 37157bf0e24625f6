import path from "node:path";
import type { BatchEvent, BatchResult } from "@reelsmith/runner/batch";
import type { CliContext } from "../context.js";
import { displayPath } from "../render/display-path.js";
import { formatBatchEvent } from "../render/format-batch.js";
import { knownModelCatalogs } from "../services/known-model-catalogs.js";
import { openService } from "../services/open-service.js";
import { batchExitCode } from "./batch-command.js";
import { serviceRunOptions } from "./execute-run.js";

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
  try {
    const runner = await import("@reelsmith/runner/batch");
    const batchOptions = {
      runsRoot: path.resolve(context.cwd, "runs"),
      ...serviceRunOptions(service, context, options),
      ...(catalogs ? { catalogs } : {}),
      ...(options.parallel === undefined ? {} : { parallel: options.parallel }),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.maxVideos === undefined ? {} : { slots: { video: options.maxVideos } }),
      ...(options.maxCredits === undefined ? {} : { maxCredits: options.maxCredits }),
      ...(options.allowPartial ? { allowPartial: true } : {}),
      ...(options.autoApprove ? { autoApprove: true } : {}),
      stopSignal: stop.signal,
      signal: context.forceSignal ?? context.signal,
      onEvent: (event: BatchEvent) => {
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
  else if (result.status === "waiting")
    note(
      `rows wait at a gate: approve each with reelsmith approve ${shown}/rows/<id>, then: reelsmith resume ${shown}`,
    );
  return code;
}

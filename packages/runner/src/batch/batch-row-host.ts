import type { RunEvent } from "../events/run-event.js";
import type { EstimateInputs } from "../lifecycle/run-estimate-check.js";
import type { RunResult } from "../run-options.js";
import type { BatchJson } from "./batch-store.js";

/** One row's run, as a batch asks its host to run it (or to take on the one placed before). */
export interface BatchRowRequest {
  /** The pipeline file (absolute). */
  pipelinePath: string;
  /** The row's fields, as the pipeline's inputs. */
  inputs: Record<string, unknown>;
  /** Where {@link BatchRowHost.place} put the row's run. */
  runId?: string;
  runDir: string;
  /**
   * True when the batch journal says this row's run was started before: the host takes on
   * that run (finished units are never paid again) instead of starting a new one.
   */
  resume: boolean;
  /** What the row's run may spend in all (its part of the batch's budget). */
  maxCredits?: number;
  allowPartial?: boolean;
  onEvent: (event: RunEvent) => void;
}

/** How a row's run ended: the part of a run's result a batch keeps. */
export type BatchRowOutcome = Pick<
  RunResult,
  "status" | "outputs" | "runDir" | "durationMs" | "error"
> & { runId?: string; totals: Pick<RunResult["totals"], "credits"> };

/**
 * Where a batch's rows run when not in this process (e.g. the workers of a shared database):
 * the batch keeps its journal, its budget's admissions and its report here, and hands each
 * admitted row's run to the host. Without one, rows run in this process.
 * @example const result = await runBatch("p.yaml", "rows.csv", { rowHost, maxCredits: 100 });
 */
export interface BatchRowHost {
  /** A name kept in the batch journal: a batch is resumed only with a host of the same name. */
  readonly name: string;
  /** Where a row's run goes, chosen before it is journaled (the same answer every time). */
  place(
    batch: { batchId: string; batchDir: string },
    rowId: string,
  ): {
    runId?: string;
    runDir: string;
  };
  /** Runs the row (or takes on its run, with `resume`) and resolves when the run has ended. */
  run(request: BatchRowRequest): Promise<BatchRowOutcome>;
  /** Told the batch's summary each time it is saved (e.g. to show it to other machines). */
  publish?(summary: BatchJson, batchDir: string): Promise<void>;
  /**
   * The cache the rows' runs are served from, given the batch's runs root (the directory of
   * its rows' runs), for the rows' estimates: a unit it holds costs a row nothing, as the
   * row's run will find it. Without one, rows are priced without a cache.
   */
  rowsCache?(runsRoot: string): EstimateInputs["cache"];
}

import { join, resolve } from "node:path";
import type { CreditBudget } from "../executor/budget.js";
import type { ExecuteOptions } from "../executor/execute-pipeline.js";
import type { ExecutionExtras } from "../executor/execution-context.js";
import type { QueueSlots } from "../executor/queue-slots.js";
import { subPipelineOutputs } from "../executor/run-outcome.js";
import type { RunOptions, RunResult } from "../run-options.js";
import type { ModelCatalogs } from "../steps/step-kind.js";
import { subRunDepth } from "./sub-run-depth.js";

/** Runs a pipeline file to its end (the runner's `runPipeline`). */
export type RunSubPipeline = (file: string, options: RunOptions) => Promise<RunResult>;

/** What a run's sub-runs share with it. */
export interface LocalSubRunsOptions {
  options: RunOptions;
  runDir: () => string;
  pipelineDir: string;
  budget: CreditBudget;
  slots: QueueSlots;
  /** The model catalogs the run knows (its sub-runs are not checked against the service again). */
  catalogs?: ModelCatalogs | undefined;
  client: ExecuteOptions["client"];
  runSub: RunSubPipeline;
}

/**
 * The sub-run closure of a local run: each sub-pipeline runs in this process, in a directory
 * of its own under the run's `subruns/`, spending from the run's budget, taking its units'
 * slots from the same queues, one level deeper (too deep: SubPipelineDepthError, told
 * to every run above through the shared trip).
 * @example extras.runSubPipeline = localSubRuns({ options, runDir: () => dir, … });
 */
export function localSubRuns(given: LocalSubRunsOptions): ExecutionExtras["runSubPipeline"] {
  const { options, pipelineDir, budget, slots } = given;
  const trip = options.subRunOf?.trip ?? {};
  const catalogs = given.catalogs;
  let subRuns = 0;
  return async (file, subInputs, sub) => {
    const depth = subRunDepth({
      parentDepth: options.subRunOf?.depth ?? 0,
      file,
      pipelineDir,
      trip,
    });
    subRuns += 1;
    const subResult = await given.runSub(resolve(pipelineDir, file), {
      ...options,
      // What it shares with this run: the budget, the queues' slots, its depth, the depth
      // trip, and the models this run learned (it is not checked again).
      subRunOf: {
        budget,
        slots,
        depth,
        trip,
        ...(catalogs ? { catalogs } : {}),
        ...(options.subRunOf?.fence ? { fence: options.subRunOf.fence } : {}),
      },
      inputs: subInputs,
      resume: undefined,
      runDir: join(given.runDir(), "subruns", `${sub.name}-${subRuns}`),
      client: given.client,
      signal: sub.signal,
      onEvent: undefined,
    });
    // What the sub-run spent belongs to the step whose tool started it.
    sub.onTotals?.({ ...subResult.totals, cachedSteps: 0 });
    return subPipelineOutputs(file, subResult, trip);
  };
}

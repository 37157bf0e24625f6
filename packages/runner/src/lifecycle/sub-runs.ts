import { join, resolve } from "node:path";
import type { SubPipelineDepthError } from "../errors/sub-pipeline-depth-error.js";
import type { CreditBudget } from "../executor/budget.js";
import type { ExecuteOptions } from "../executor/execute-pipeline.js";
import type { QueueSlots } from "../executor/queue-slots.js";
import { subPipelineOutputs } from "../executor/run-outcome.js";
import type { RunOptions, RunResult } from "../run-options.js";
import type { ModelCatalogs, RunServices } from "../steps/step-kind.js";
import { subRunDepth } from "./sub-run-depth.js";

/**
 * Where a run's sub-pipelines run, and the one part of running one that is the host's own.
 * The rest (the depth check, the sub-run's directory, spending from the run's budget, what
 * the tool gets back) is written once, in `subRuns`.
 *
 * @example
 * const host: SubRunHost = { depth: 0, trip: {}, runDir: () => dir, slots, client, runPipeline: (file, options) => runPipeline(file, options) };
 */
export interface SubRunHost {
  /** How deep the run is among sub-pipelines: 0 for a run of its own. */
  depth: number;
  /** Shared by the run and every run above and below it: set once one is nested too deep. */
  trip: { error?: SubPipelineDepthError };
  /** The run's directory: each sub-run's is `<it>/subruns/<step>-<tool>[-<unit>]-<n>`. */
  runDir(): string;
  /**
   * The unit whose sub-runs these are, when the host counts them per unit (a worker runs one
   * unit of the run): part of each directory's name, so that two units' never meet.
   */
  unit?: string;
  /** The queues' slots the sub-runs' units take theirs from (the run's own). */
  slots: QueueSlots;
  client: ExecuteOptions["client"];
  /**
   * Runs a sub-pipeline file (an absolute path) to its end, given what the run hands it:
   * its inputs, directory, client, signal and `subRunOf` (the run's budget, slots, depth,
   * trip, catalogs and fence). The host adds its own (the run's other options in this
   * process; a worker's shared cache) and says what it must once the sub-run ended.
   */
  runPipeline(file: string, options: RunOptions): Promise<RunResult>;
}

/** What the run shares with its sub-runs beyond the host: its budget, catalogs, fence, flags. */
export interface SubRunsOf {
  pipelineDir: string;
  budget: CreditBudget;
  /** The model catalogs the run knows, whole (its sub-runs are not checked against the service again). */
  catalogs?: ModelCatalogs | undefined;
  fence?: RunServices["fence"];
  resubmitLostJobs?: boolean | undefined;
  autoApprove?: boolean | undefined;
}

/**
 * A run's `runSubPipeline`: each sub-pipeline runs one level deeper than the run (too deep:
 * SubPipelineDepthError, told to every run above through the shared trip), in a directory of
 * its own under the run's `subruns/`, spending from the run's budget and taking its units'
 * slots from the run's queues; what it spent belongs to the step whose tool started it, and
 * the tool gets its outputs (a failed sub-run: SubPipelineFailedError). Where it runs is the
 * host's (`SubRunHost.runPipeline`).
 * @example services.runSubPipeline = subRuns(host, { pipelineDir, budget, catalogs });
 */
export function subRuns(host: SubRunHost, run: SubRunsOf): RunServices["runSubPipeline"] {
  const { trip } = host;
  let started = 0;
  return async (file, inputs, sub) => {
    const depth = subRunDepth({
      parentDepth: host.depth,
      file,
      pipelineDir: run.pipelineDir,
      trip,
    });
    started += 1;
    const name = [sub.name, ...(host.unit === undefined ? [] : [host.unit]), started].join("-");
    const result = await host.runPipeline(resolve(run.pipelineDir, file), {
      inputs,
      runDir: join(host.runDir(), "subruns", name),
      client: host.client,
      signal: sub.signal,
      ...(run.resubmitLostJobs ? { resubmitLostJobs: true } : {}),
      ...(run.autoApprove ? { autoApprove: true } : {}),
      // What it shares with this run: the budget, the queues' slots, its depth, the depth
      // trip, the models this run learned (it is not checked again) and the unit's fence.
      subRunOf: {
        budget: run.budget,
        slots: host.slots,
        depth,
        trip,
        ...(run.catalogs ? { catalogs: run.catalogs } : {}),
        ...(run.fence ? { fence: run.fence } : {}),
      },
    });
    // What the sub-run spent belongs to the step whose tool started it.
    sub.onTotals?.({ ...result.totals, cachedSteps: 0 });
    return subPipelineOutputs(file, result, trip);
  };
}

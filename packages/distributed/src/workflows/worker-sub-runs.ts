import { join } from "node:path";
import { runPipeline } from "@reelsmith/runner";
import type { SubPipelineDepthError } from "@reelsmith/runner/errors";
import {
  type CreditBudget,
  type QueueSlots,
  subPipelineOutputs,
  subRunDepth,
} from "@reelsmith/runner/internal";
import type { RunServices } from "@reelsmith/runner/kinds";
import type { createDatabaseBudget } from "../budget/database-budget.js";
import type { createDatabaseCacheIndex } from "../cache/database-cache-index.js";
import { cacheDirOf } from "../store/run-paths.js";
import type { RunRow } from "../store/run-row.js";
import type { serviceClient } from "../worker/worker-context.js";
import type { UnitJob } from "./unit-job.js";

/** What a unit's sub-runs share with it. */
export interface WorkerSubRuns {
  job: UnitJob;
  run: RunRow;
  pipelineDir: string;
  client: ReturnType<typeof serviceClient>;
  cacheIndex: ReturnType<typeof createDatabaseCacheIndex>;
  budget: CreditBudget & Pick<ReturnType<typeof createDatabaseBudget>, "releaseOpen">;
  slots: QueueSlots;
}

/**
 * The sub-run closure of a unit on a worker: each sub-pipeline runs in the worker's process,
 * in a directory of its own under the run's `subruns/`, one level deeper than the run (its
 * depth counted as a local run counts it: too deep, SubPipelineDepthError through the shared
 * trip), spending from the run's budget in the database and taking the account's video slots.
 * @example extras.runSubPipeline = workerSubRuns({ job, run, pipelineDir, client, cacheIndex, budget, slots });
 */
export function workerSubRuns(given: WorkerSubRuns): RunServices["runSubPipeline"] {
  const { job, run, pipelineDir, client, cacheIndex, budget, slots } = given;
  let subRuns = 0;
  // Shared with every sub-run below this unit: set once one of them is nested too deep.
  const trip: { error?: SubPipelineDepthError } = {};
  return async (file, inputs, sub) => {
    // One level below this run, counted as a local run counts (too deep: the trip).
    const depth = subRunDepth({
      parentDepth: run.options.depth ?? 0,
      file,
      pipelineDir,
      trip,
    });
    subRuns += 1;
    const name = `${sub.name}-${job.stepId}-${job.index ?? 0}-${subRuns}`;
    const subResult = await runPipeline(join(pipelineDir, file), {
      inputs,
      runDir: join(run.runDir, "subruns", name),
      client,
      signal: sub.signal,
      cache: run.options.cache !== false,
      cacheDir: cacheDirOf(run),
      cacheIndex,
      // It spends from this run's budget and takes the account's video slots.
      subRunOf: {
        budget,
        slots,
        depth,
        trip,
        ...(run.options.catalogs ? { catalogs: run.options.catalogs } : {}),
      },
    });
    sub.onTotals?.({ ...subResult.totals, cachedSteps: 0 });
    // Its submissions that never completed hold no credits once it has ended.
    await budget.releaseOpen(`reelsmith-${subResult.runId}-`).catch(() => undefined);
    return subPipelineOutputs(file, subResult, trip);
  };
}

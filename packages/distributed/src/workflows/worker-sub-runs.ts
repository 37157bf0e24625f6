import { runPipeline } from "@reelsmith/runner";
import type { QueueSlots, SubRunHost } from "@reelsmith/runner/internal";
import type { createDatabaseBudget } from "../budget/database-budget.js";
import type { createDatabaseCacheIndex } from "../cache/database-cache-index.js";
import { cacheDirOf } from "../store/run-paths.js";
import type { RunRow } from "../store/run-row.js";
import type { serviceClient } from "../worker/worker-context.js";
import type { UnitJob } from "./unit-job.js";

/** What a unit's sub-runs share with it on its worker. */
export interface WorkerSubRuns {
  job: UnitJob;
  run: RunRow;
  client: ReturnType<typeof serviceClient>;
  cacheIndex: ReturnType<typeof createDatabaseCacheIndex>;
  budget: Pick<ReturnType<typeof createDatabaseBudget>, "releaseOpen">;
  slots: QueueSlots;
}

/**
 * Where a unit's sub-pipelines run on a worker: in the worker's process, one level deeper
 * than the run, under the run's `subruns/` with the unit in their names (each worker counts
 * its own unit's), with the shared cache in the database; once one ended, its submissions
 * that never completed hold no credits any more. The rest is the runner's (`subRuns`).
 * @example createRunServices({ …, subRuns: workerSubRuns({ job, run, client, cacheIndex, budget, slots }) });
 */
export function workerSubRuns(given: WorkerSubRuns): SubRunHost {
  const { job, run, budget } = given;
  return {
    depth: run.options.depth ?? 0,
    // Shared with every sub-run below this unit: set once one of them is nested too deep.
    trip: {},
    runDir: () => run.runDir,
    unit: `${job.stepId}-${job.index ?? 0}`,
    slots: given.slots,
    client: given.client,
    async runPipeline(file, options) {
      const result = await runPipeline(file, {
        ...options,
        cache: run.options.cache !== false,
        cacheDir: cacheDirOf(run),
        cacheIndex: given.cacheIndex,
      });
      // Its submissions that never completed hold no credits once it has ended.
      await budget.releaseOpen(`reelsmith-${result.runId}-`).catch(() => undefined);
      return result;
    },
  };
}

import { dirname, join, resolve } from "node:path";
import type { RunOptions } from "@reelsmith/runner";
import type { RunServicesOf } from "@reelsmith/runner/internal";
import { budgetScopes } from "../service.js";
import type { RunRequest } from "./run-store.js";
import { storedPipeline } from "./written-pipelines.js";

/**
 * The cache directory of an artifacts directory: the cached clips' blobs, `.cache/blobs`
 * (their entries are rows of `reelsmith.cache_entries`).
 * @example artifactsCacheDir("/mnt/reels") // "/mnt/reels/.cache"
 */
export function artifactsCacheDir(artifacts: string): string {
  return join(resolve(artifacts), ".cache");
}

/** The shared cache directory of the artifacts root the run lives in. */
export function cacheDirOf(run: Pick<RunRequest, "runDir">): string {
  return artifactsCacheDir(dirname(run.runDir));
}

/** Where the pipeline's relative files (images, tools) are found. */
export function pipelineDirOf(run: Pick<RunRequest, "pipelinePath">): string {
  return run.pipelinePath === "<inline>" ? process.cwd() : dirname(run.pipelinePath);
}

/**
 * The budget scopes a run's submissions count against: the run's, the account's, and the one
 * it shares with other runs (a batch's), when it has one.
 */
export function runScopes(run: Pick<RunRequest, "runId" | "service" | "options">): string[] {
  return [
    budgetScopes.run(run.runId),
    budgetScopes.account(run.service),
    ...(run.options.sharedScope ? [run.options.sharedScope] : []),
  ];
}

/**
 * What a stored run says of the services its steps get, the same for the run's workflow and
 * each unit's: its id and pipeline directory, its pipeline as written (who reads each step's
 * outputs), its catalogs and flags. The budget, fence and sub-runs are the caller's.
 * @example createRunServices({ ...storedRunServices(run, context.kinds), budget })
 */
export function storedRunServices(
  run: Pick<RunRequest, "runId" | "pipelinePath" | "pipelineSource" | "pipelineHash" | "options">,
  kinds: RunServicesOf["kinds"],
): Omit<RunServicesOf, "budget"> {
  return {
    runId: run.runId,
    pipelineDir: pipelineDirOf(run),
    // Parsed once per run in this process, whichever of its units asks.
    pipeline: storedPipeline(run),
    kinds,
    catalogs: run.options.catalogs as RunOptions["catalogs"],
    resubmitLostJobs: run.options.resubmitLostJobs,
    autoApprove: run.options.autoApprove,
  };
}

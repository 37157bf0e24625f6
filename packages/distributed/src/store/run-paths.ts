import { dirname, join } from "node:path";
import { budgetScopes } from "../service.js";
import type { RunRequest } from "./run-store.js";

/** The shared cache directory of the artifacts root the run lives in. */
export function cacheDirOf(run: Pick<RunRequest, "runDir">): string {
  return join(dirname(run.runDir), ".cache");
}

/** Where the pipeline's relative files (images, tools) are found. */
export function pipelineDirOf(run: Pick<RunRequest, "pipelinePath">): string {
  return run.pipelinePath === "<inline>" ? process.cwd() : dirname(run.pipelinePath);
}

/** The budget scopes a run's submissions count against: the run's and the account's. */
export function runScopes(run: Pick<RunRequest, "runId" | "service">): string[] {
  return [budgetScopes.run(run.runId), budgetScopes.account(run.service)];
}

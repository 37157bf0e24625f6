// Seam to `planPipeline` of @reelsmith/runner, which is being written at the same time as the
// CLI: until it is exported, this looks it up at run time so the CLI builds either way and
// says clearly what is missing. Everything else is imported from the runner directly.

import type { LoadedPipeline } from "@reelsmith/runner";
import * as runnerModule from "@reelsmith/runner";
import { CliError } from "../errors/cli-error.js";

/** The contracted signature of the runner's `planPipeline`. */
export type PlanPipeline = (
  pipeline: LoadedPipeline,
  options?: { inputs?: Record<string, unknown> },
) => unknown;

/**
 * The runner's planPipeline, or a CliError saying this build of @reelsmith/runner lacks it.
 *
 * @example
 * const plan = planPipelineOf()(pipeline, { inputs });
 */
export function planPipelineOf(): PlanPipeline {
  const value = (runnerModule as Record<string, unknown>).planPipeline;
  if (typeof value !== "function") {
    throw new CliError("this build of @reelsmith/runner does not provide planPipeline()", {
      code: "runner_missing_export",
      hint: "rebuild the workspace (pnpm build) or update @reelsmith/runner",
    });
  }
  return value as PlanPipeline;
}

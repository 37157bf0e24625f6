// Seam to the pipeline side of @reelsmith/runner (validate, format, plan). It is being written
// at the same time as the CLI; until those exports land, this file declares the contracted
// signatures and looks the functions up at run time, so the CLI builds either way and says
// clearly what is missing.
import * as runnerModule from "@reelsmith/runner";
import { CliError } from "../errors/cli-error.js";

/** A problem found in a pipeline file (runner contract). */
export interface Diagnostic {
  severity: "error" | "warning";
  code: string;
  message: string;
  file: string;
  line: number;
  column: number;
  sourceLine?: string;
  hint?: string;
}

/** A loaded pipeline (the parts the CLI reads). */
export interface LoadedPipelineView {
  path: string;
  hash: string;
  spec: { name?: string; [key: string]: unknown };
}

/** The runner functions the CLI uses, as agreed in the contracts. */
export interface RunnerApi {
  validatePipeline(
    file: string,
  ): Promise<{ pipeline?: LoadedPipelineView; diagnostics: Diagnostic[] }>;
  formatDiagnostic(diagnostic: Diagnostic): string;
  planPipeline(
    pipeline: LoadedPipelineView,
    options?: { inputs?: Record<string, unknown> },
  ): unknown;
}

const exported = runnerModule as unknown as Partial<RunnerApi>;

/**
 * A runner function by name, or a CliError saying this build of @reelsmith/runner lacks it.
 *
 * @example
 * const { diagnostics } = await runner("validatePipeline")("pipeline.yaml");
 */
export function runner<K extends keyof RunnerApi>(name: K): RunnerApi[K] {
  const value = exported[name];
  if (typeof value !== "function") {
    throw new CliError(`this build of @reelsmith/runner does not provide ${name}()`, {
      code: "runner_missing_export",
      hint: "rebuild the workspace (pnpm build) or update @reelsmith/runner",
    });
  }
  return value as RunnerApi[K];
}

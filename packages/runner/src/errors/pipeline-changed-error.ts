import { RunnerError } from "./runner-error.js";

/**
 * Resume refused: the pipeline file differs from the one the run started with.
 * @example throw new PipelineChangedError("runs/x", "ab12…", "cd34…");
 */
export class PipelineChangedError extends RunnerError {
  readonly runDir: string;
  readonly expectedHash: string;
  readonly actualHash: string;
  constructor(runDir: string, expectedHash: string, actualHash: string) {
    super(
      "pipeline_changed",
      `Cannot resume ${runDir}: the pipeline changed since the run started (sha256 ${expectedHash.slice(0, 12)}… then, ${actualHash.slice(0, 12)}… now). Resume with the original file (a copy is in ${runDir}/pipeline.yaml) or start a new run.`,
      { category: "invalid" },
    );
    this.runDir = runDir;
    this.expectedHash = expectedHash;
    this.actualHash = actualHash;
  }
}

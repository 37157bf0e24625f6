import type { SerializedError } from "../events/run-event.js";
import { RunnerError } from "./runner-error.js";

/**
 * A chat tool's sub-pipeline did not succeed: the tool's call fails with this (the model is
 * told), carrying the sub-run's own error.
 * @example throw new SubPipelineFailedError("tools/clips.yaml", "failed", error);
 */
export class SubPipelineFailedError extends RunnerError {
  readonly file: string;
  readonly status: string;
  readonly subError: SerializedError | undefined;
  constructor(file: string, status: string, subError: SerializedError | undefined) {
    super(
      "sub_pipeline_failed",
      `sub-pipeline ${file} ${status}: ${subError?.message ?? "no error"}`,
      { isRetryable: subError?.isRetryable === true },
    );
    this.file = file;
    this.status = status;
    this.subError = subError;
  }
}

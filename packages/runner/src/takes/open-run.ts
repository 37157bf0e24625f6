import { resolve } from "node:path";
import { PipelineChangedError } from "../errors/pipeline-changed-error.js";
import { inspectRun } from "../executor/inspect-run.js";
import { loadForRun } from "../executor/load-for-run.js";
import type { OpenedRun } from "../executor/run-session.js";
import type { RunOptions } from "../run-options.js";
import { lockRun } from "../run-pipeline.js";
import type { StepKindSpec } from "../steps/step-kind.js";

/**
 * Opens a run for a retake or a pick before it starts: takes its lock, reads and replays its
 * journal (once) and loads its pipeline, found unchanged. Its checks (`checkRetake`,
 * `checkPick`), what a caller wants to know of it (`onDisk`: its service, its pipeline) and
 * then the take itself (`streamRetake`, `streamPick`) all go on from this one reading; the
 * caller releases it. Throws ResumeError (not a run, in use) or PipelineChangedError.
 * @example
 * const opened = await openRun("runs/20260101-120000-storyboard");
 * try {
 *   await checkRetake(opened, { step: "clips", index: 1 });
 *   await retakeItem(opened, { step: "clips", index: 1 }, options);
 * } finally {
 *   opened.release();
 * }
 */
export async function openRun(
  dir: string,
  options: Pick<RunOptions, "catalogs" | "stepKinds"> & {
    /** Validate the pipeline now (default true; else the take validates its text). */
    validate?: boolean;
  } = {},
): Promise<OpenedRun> {
  const runDir = resolve(dir);
  const release = lockRun(runDir) ?? (() => {});
  try {
    const onDisk = inspectRun(runDir);
    const validate = options.validate !== false;
    const pipeline = await loadForRun(onDisk.pipelinePath, {
      validate,
      ...(options.catalogs ? { catalogs: options.catalogs } : {}),
      ...(options.stepKinds
        ? { stepKinds: options.stepKinds as readonly StepKindSpec<never>[] }
        : {}),
    });
    if (pipeline.hash !== onDisk.start.pipelineHash) {
      throw new PipelineChangedError(runDir, String(onDisk.start.pipelineHash), pipeline.hash);
    }
    let released = false;
    return {
      onDisk,
      pipeline,
      validated: validate,
      release() {
        if (released) return;
        released = true;
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

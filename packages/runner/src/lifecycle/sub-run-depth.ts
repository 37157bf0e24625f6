import { resolve } from "node:path";
import { SubPipelineDepthError } from "../errors/sub-pipeline-depth-error.js";
import { MAX_SUB_PIPELINE_DEPTH } from "../pipeline/sub-pipelines.js";

/** Where a sub-run starts from: how deep its parent run is and the trip they all share. */
export interface SubRunDepthOf {
  /** How deep the run that starts the sub-run is: 0 for a run of its own. */
  parentDepth: number;
  /** The sub-pipeline's file, as the tool names it. */
  file: string;
  /** The directory the file is relative to (the parent pipeline's). */
  pipelineDir: string;
  /** Shared by a run and all its sub-runs: set once one of them is nested too deep. */
  trip: { error?: SubPipelineDepthError };
}

/**
 * The depth a sub-run runs at, one level below the run that starts it; past
 * MAX_SUB_PIPELINE_DEPTH it throws SubPipelineDepthError and sets the shared trip, so every
 * run above ends with it. The local and the distributed executors count the same way.
 * @example const depth = subRunDepth({ parentDepth: 0, file: "tools/clips.yaml", pipelineDir, trip }); // 1
 */
export function subRunDepth(given: SubRunDepthOf): number {
  const depth = given.parentDepth + 1;
  if (depth > MAX_SUB_PIPELINE_DEPTH) {
    given.trip.error = new SubPipelineDepthError(
      resolve(given.pipelineDir, given.file),
      depth,
      MAX_SUB_PIPELINE_DEPTH,
    );
    throw given.trip.error;
  }
  return depth;
}

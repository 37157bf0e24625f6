import { RunnerError } from "./runner-error.js";

/**
 * A chat tool started a sub-pipeline nested deeper than the limit: a cycle of pipeline files
 * that `validate` could not see (the path came from an expression), or a chain too long.
 * It ends the whole run (every enclosing step fails with it) instead of being handed back to
 * the model as a tool result, so no further completions are paid for.
 * @example throw new SubPipelineDepthError("/work/p.yaml", 9, 8);
 */
export class SubPipelineDepthError extends RunnerError {
  readonly file: string;
  readonly depth: number;
  readonly maxDepth: number;
  constructor(file: string, depth: number, maxDepth: number) {
    super(
      "sub_pipeline_too_deep",
      `sub-pipeline ${file} would run ${depth} levels deep; the limit is ${maxDepth}. A tool's pipeline probably runs, directly or through others, the pipeline that calls it.`,
    );
    this.file = file;
    this.depth = depth;
    this.maxDepth = maxDepth;
  }
}

import type { AnyStepKind, ModelCatalogs } from "../../steps/step-kind.js";
import type { PipelineSpec } from "../pipeline-spec.js";
import { createCheckModel, type PipelineProblem } from "./check-model.js";
import { stepsPass } from "./steps-pass.js";

/**
 * The errors of a valid pipeline's steps against models learned after it was validated (the
 * service's model list): each kind's own checks run again with them, nothing else.
 * @example problemsWithModels(pipeline.spec, kinds, learned) // [{ path: ["steps", 1, "video", "seconds"], … }]
 */
export function problemsWithModels(
  spec: PipelineSpec,
  kinds: ReadonlyMap<string, AnyStepKind>,
  catalogs: ModelCatalogs,
): PipelineProblem[] {
  const model = createCheckModel({ ...spec }, { kinds, catalogs, baseDir: undefined });
  stepsPass(model);
  return model.problems.filter((problem) => problem.severity === "error");
}

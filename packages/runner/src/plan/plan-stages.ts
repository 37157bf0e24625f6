import type { PipelineSpec } from "../pipeline/pipeline-spec.js";
import type { buildGraph } from "./build-graph.js";
import type { PlanStage } from "./plan-types.js";

/**
 * The stages of a pipeline: each step one stage after the latest of what it depends on, so
 * that the steps of a stage run together.
 * @example planStages(spec, buildGraph(pipeline)).stages // [{ index: 0, steps: ["storyboard"] }, …]
 */
export function planStages(
  spec: Pick<PipelineSpec, "steps">,
  graph: ReturnType<typeof buildGraph>,
): { stageOf: Map<string, number>; stages: PlanStage[] } {
  const stageOf = new Map<string, number>();
  for (const id of graph.order) {
    let stage = 0;
    for (const dependency of graph.dependencies.get(id) ?? [])
      stage = Math.max(stage, (stageOf.get(dependency) ?? -1) + 1);
    stageOf.set(id, stage);
  }
  const stages: PlanStage[] = [];
  for (const step of spec.steps) {
    const index = stageOf.get(step.id) ?? 0;
    while (stages.length <= index) stages.push({ index: stages.length, steps: [] });
    stages[index]?.steps.push(step.id);
  }
  return { stageOf, stages };
}

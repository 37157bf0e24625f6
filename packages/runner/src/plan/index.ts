export { buildGraph, findCycles, type StepGraph, stepDependencies } from "./build-graph.js";
export { type PlanOptions, planPipeline } from "./plan-pipeline.js";
export type {
  OtherUnitTotal,
  Plan,
  PlanLimits,
  PlannedFanOut,
  PlannedStep,
  PlanStage,
  RunEstimate,
  StepEstimate,
} from "./plan-types.js";

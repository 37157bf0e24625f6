export { type ConcatOptions, type ConcatPlanned, type ConcatResult, concat } from "./concat.js";
export { type ConcatPlan, type JoinMethod, planConcat } from "./concat-plan.js";
export {
  clipStarts,
  type Transition,
  type TransitionEngine,
} from "./transition-graph.js";
export { type OutputExpectation, verifyOutput } from "./verify-output.js";

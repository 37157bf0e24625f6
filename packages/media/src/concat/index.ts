export { type ConcatOptions, type ConcatResult, concat } from "./concat.js";
export { type ConcatPlan, type JoinMethod, planConcat } from "./concat-plan.js";
export type { Transition } from "./join-xfade.js";
export { type OutputExpectation, verifyOutput } from "./verify-output.js";

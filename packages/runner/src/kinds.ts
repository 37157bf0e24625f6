// @reelsmith/runner/kinds: what a step kind's author needs. A kind is `defineStepKind({...})`
// (its YAML key, schema, outputs' static type and `run`, plus the optional answers typed in
// `StepKindSpec`); a run takes it as `stepKinds: [...builtInStepKinds, myKind]`.
export { defineStepKind, usageAndCredits } from "./steps/define-step-kind.js";
export { builtInStepKinds, kindsByName } from "./steps/registry.js";
export {
  arrayOf,
  BOOLEAN,
  NUMBER,
  objectOf,
  STRING,
  type StaticType,
  typeFromSchema,
  UNKNOWN,
} from "./steps/static-types.js";
export type * from "./steps/step-kind.js";

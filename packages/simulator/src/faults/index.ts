export {
  type ChosenFault,
  createFaultInjector,
  type FaultInjector,
  type FaultRoute,
} from "./fault-injector.js";
export type { FaultKind, FaultRule, FaultSpec, FaultTarget } from "./fault-spec.js";
export { parseFaultSpec, validateFaultRule } from "./parse-fault-spec.js";

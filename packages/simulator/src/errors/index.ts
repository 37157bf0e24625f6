export { FaultSpecError } from "./fault-spec-error.js";
export { type ErrorBody, HttpError } from "./http-error.js";
export { SimulatorError } from "./simulator-error.js";

// @reelsmith/simulator: every service reelsmith speaks, on loopback (`startSimulator`), with
// its options, faults and errors. The models it serves without a profile are in
// `@reelsmith/simulator/catalog`.
export type { ReplyStyle } from "./chat/generate-reply.js";
export { type ErrorBody, FaultSpecError, HttpError, SimulatorError } from "./errors/index.js";
export {
  type FaultKind,
  type FaultRule,
  type FaultSpec,
  type FaultTarget,
  parseFaultSpec,
} from "./faults/index.js";
export type { Logger } from "./server/logger.js";
export { type Simulator, type SimulatorOptions, startSimulator } from "./server/start-simulator.js";
export type { SimulatorStats } from "./stats/simulator-stats.js";
export { videoCredits } from "./videos/credits.js";
export type { ReceivedFile, ReceivedVideoRequest } from "./videos/received-video-request.js";
export { failWord } from "./videos/video-service.js";

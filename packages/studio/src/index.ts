export { parseAction } from "./actions/parse-action.js";
export {
  createSessions,
  type SessionState,
  type Sessions,
  type StudioAction,
  StudioActionError,
} from "./actions/sessions.js";
export type {
  OpenedService,
  SessionKind,
  SessionOptions,
  StudioHost,
} from "./actions/studio-host.js";
export { actionPrices, canResume, type Price } from "./runs/action-prices.js";
export { listRuns, type RunSummary } from "./runs/list-runs.js";
export { createToken } from "./security/access-token.js";
export { runDirectory, runFilePath } from "./security/safe-path.js";
export { STUDIO_CSP, type Studio, type StudioOptions, startStudio } from "./server/start-studio.js";

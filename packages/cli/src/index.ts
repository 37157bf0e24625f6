export type { CliContext } from "./context.js";
export type { RunEvent, RunResultView } from "./contracts/run-event.js";
export { CliError, ExitCode, UsageError } from "./errors/cli-error.js";
export { runMain } from "./main.js";
export {
  type DeliveryOutcome,
  deliverNotification,
  type NotificationStatus,
  type RunNotification,
  SIGNATURE_HEADER,
  signNotification,
  verifyNotificationSignature,
} from "./notify/index.js";
export { createProgram, executeCli } from "./program.js";
export { createJsonRenderer } from "./render/json-renderer.js";
export { createPlainRenderer } from "./render/plain-renderer.js";
export { createPrettyRenderer } from "./render/pretty-renderer.js";
export { createRedactor } from "./render/redact.js";
export type { Renderer } from "./render/renderer.js";

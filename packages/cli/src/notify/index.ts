export { buildNotification } from "./build-notification.js";
export { commandNotifier } from "./command-notifier.js";
export {
  type DeliverNotificationOptions,
  type DeliveryOutcome,
  deliverNotification,
  type UndeliveredReason,
} from "./deliver-notification.js";
export type {
  NotificationCredits,
  NotificationError,
  NotificationStatus,
  RunNotification,
} from "./notification.js";
export {
  displayUrl,
  type NotifyConfig,
  notifyOption,
  resolveNotifyConfig,
} from "./notify-options.js";
export { createRunNotifier, type RunEnding, type RunNotifier } from "./run-notifier.js";
export {
  SIGNATURE_HEADER,
  signNotification,
  verifyNotificationSignature,
} from "./sign-notification.js";

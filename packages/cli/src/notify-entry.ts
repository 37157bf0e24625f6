// @reelsmith/cli/notify: the run notification `--notify` posts, for a receiver that checks its
// signature (`verifyNotificationSignature`, `SIGNATURE_HEADER`) and a sender of its own.
export {
  type DeliveryOutcome,
  deliverNotification,
  type NotificationStatus,
  type RunNotification,
  SIGNATURE_HEADER,
  signNotification,
  verifyNotificationSignature,
} from "./notify/index.js";

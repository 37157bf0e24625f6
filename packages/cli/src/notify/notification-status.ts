import type { NotificationStatus } from "./notification.js";

/**
 * The status a notification reports, from how the run ended: a run stopped by this
 * process's signal is `interrupted`, one cancelled elsewhere `cancelled`, and a failure
 * that the credit budget caused `budget_reached`.
 *
 * @example
 * notificationStatus({ runStatus: "cancelled", interrupted: true }); // "interrupted"
 */
export function notificationStatus(options: {
  runStatus: string;
  /** This process was interrupted (Ctrl-C, SIGTERM). */
  interrupted?: boolean;
  /** A `budget.reached` event was seen. */
  budgetReached?: boolean;
  /** The category of the run's error (core's `ErrorCategory`), when it has one. */
  errorCategory?: string;
}): NotificationStatus {
  const { runStatus } = options;
  if (runStatus === "cancelled") return options.interrupted ? "interrupted" : "cancelled";
  if (runStatus === "failed" && (options.errorCategory === "budget" || options.budgetReached))
    return "budget_reached";
  return runStatus;
}

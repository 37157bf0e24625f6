/**
 * How a run stands when it is notified. An open set: receivers must accept values they do
 * not know yet (a run that waits for an approval will come as `waiting`).
 *
 * - `succeeded`: every step ran; exit code 0.
 * - `failed`: a step failed, or the run could not start; exit code 1 (2 for an invalid pipeline).
 * - `budget_reached`: failed because the credit budget was spent; exit code 1.
 * - `interrupted`: stopped on this machine (Ctrl-C, SIGTERM); exit code 130; it can be resumed.
 * - `cancelled`: cancelled on the workers (`reelsmith cancel`); exit code 130.
 * - `waiting`: paused until someone approves it.
 */
export type NotificationStatus =
  | "succeeded"
  | "failed"
  | "budget_reached"
  | "interrupted"
  | "cancelled"
  | "waiting"
  | (string & {});

/** Credits of a run. `estimated` and `saved` are there only when the run's events carry them. */
export interface NotificationCredits {
  /** Credits the run paid. */
  spent: number;
  /** Credits the plan estimated before the run. */
  estimated?: number;
  /** Credits the result cache and resumed work saved. */
  saved?: number;
}

/** The error that ended a run, as a receiver needs it (never a stack, never the API key). */
export interface NotificationError {
  message: string;
  code?: string;
  step?: string;
}

/**
 * The JSON body POSTed to every `--notify` URL when a run ends (or starts waiting). Fields
 * about the run itself (`runId`, `runDir`, `report`, …) are left out when the run never
 * started; figures the run did not report are left out, never guessed.
 *
 * @example
 * const notification: RunNotification = JSON.parse(body);
 * if (notification.status === "failed") page(notification.text);
 */
export interface RunNotification {
  /** The version of this shape; a new version only when a field changes meaning. */
  schema: 1;
  /** `run.ended`, or `run.waiting` while the run waits for an approval. */
  event: "run.ended" | "run.waiting";
  status: NotificationStatus;
  /** One line for people (chat webhooks show `text`): pipeline, status, credits, where. */
  text: string;
  /** The exit code of the `reelsmith` process that sends this. */
  exitCode: number;
  pipeline: { name?: string; path?: string };
  runId?: string;
  /** The run directory, absolute. */
  runDir?: string;
  /** The run's report.html, absolute, when it was written. */
  report?: string;
  /** True when this process resumed an earlier run. */
  resumed?: boolean;
  /** When this process started the run (or its resume), ISO 8601. */
  startedAt?: string;
  /** When the run ended, ISO 8601. */
  endedAt: string;
  durationMs?: number;
  credits?: NotificationCredits;
  tokens?: number;
  /** What the run made with paid requests, by noun: `{ "videos": 4 }`. */
  made?: Record<string, number>;
  /** The pipeline's outputs as it evaluated them; a text longer than 4 KiB is cut. */
  outputs: Record<string, unknown>;
  /** The outputs that are files, by output name: absolute paths. */
  files: Record<string, string>;
  error?: NotificationError;
}

/** What the body says about the kind of event, from the status. */
export function notificationEvent(status: NotificationStatus): RunNotification["event"] {
  return status === "waiting" ? "run.waiting" : "run.ended";
}

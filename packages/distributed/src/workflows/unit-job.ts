import type { SerializedError } from "@reelsmith/runner";
import type { UnitResult, UnitWork } from "@reelsmith/runner/internal";

/** One unit of work as it travels through a queue: plain JSON, no functions. */
export interface UnitJob {
  runId: string;
  attempt: number;
  stepId: string;
  index?: number;
  /** The step kind's name ("video", "chat", "ffmpeg", …). */
  kind: string;
  /** The step body with defaults merged and expressions evaluated. */
  spec: Record<string, unknown>;
  retry?: UnitWork["retry"];
  timeoutMs?: number;
  cache: boolean;
  /** The pipeline's defaults per kind. */
  defaults: Record<string, Record<string, unknown>>;
}

/** How a unit ended: its result, or its error as data (never a thrown DBOS error). */
export type UnitOutcome =
  | { ok: true; result: UnitResult }
  | { ok: false; error: SerializedError; cancelled: boolean };

/** The unit's workflow id: the same unit of the same attempt always gets the same id. */
export function unitWorkflowId(
  job: Pick<UnitJob, "runId" | "attempt" | "stepId" | "index">,
): string {
  return `${job.runId}:${job.attempt}:${job.stepId}:${job.index ?? "-"}`;
}

/**
 * A slot's workflow id: the n-th slot a unit took, of any queue (`slot:<unit id>:<n>`); with n
 * omitted, the prefix of all its slots. Outside the units' own prefix, so that listings of
 * a run's units never count slots.
 */
export function slotId(holderId: string, n?: number): string {
  return `slot:${holderId}:${n ?? ""}`;
}

/** The run's workflow id for an attempt (1 = the first run, more = `resume`). */
export function runWorkflowId(runId: string, attempt: number): string {
  return attempt <= 1 ? runId : `${runId}:resume-${attempt}`;
}

/**
 * The id of the workflow that waits for the decisions on a run's gates after an attempt
 * stopped there (`approve` sends them to it). Outside the units' prefix, like the slots.
 */
export function approvalWaitId(runId: string, attempt: number): string {
  return `approval:${runId}:${attempt}`;
}

/** Names the workflows are registered (and enqueued) under. */
export const workflowNames = {
  run: "reelsmith-run",
  unit: "reelsmith-unit",
  slot: "reelsmith-slot",
  approvalWait: "reelsmith-approval-wait",
};

/** The application version every process uses, so that any worker may run any workflow. */
export const applicationVersion = "reelsmith-distributed-1";

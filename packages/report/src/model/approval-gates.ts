import type { RunEstimate, RunEvent, SerializedError } from "@reelsmith/runner";
import type { RunState } from "@reelsmith/runner/internal";
import { gatesOf } from "@reelsmith/runner/runs";
import { imageFilesOf } from "./image-files.js";
import type { ApprovalGate, RunFile } from "./report-model.js";

/**
 * The run's gates (steps whose kind the report shows as `approval`), in pipeline order: the
 * question and what it showed (from its evaluated request), and its decision as the journal
 * says (who, when, why), or `waiting`, `timed_out`, `pending`.
 * @example const gates = approvalGates(["review"], state, (step) => requests.get(step));
 */
export function approvalGates(
  steps: readonly string[],
  state: RunState,
  requestOf: (step: string) => Record<string, unknown> | undefined,
  images?: { runDir: string; toRunFile: (runDir: string, file: unknown) => RunFile | undefined },
): ApprovalGate[] {
  const journaled = new Map(gatesOf(state).map((gate) => [gate.step, gate]));
  return steps.map((step) => {
    const spec = requestOf(step) ?? {};
    const gate = journaled.get(step);
    const error = state.steps.get(step)?.error as SerializedError | undefined;
    const decision = gate?.decision;
    let status: ApprovalGate["state"] = gate?.state ?? "pending";
    if (error?.causeCode === "approval_timeout" || error?.code === "approval_timeout")
      status = "timed_out";
    const show = Array.isArray(spec.show) ? spec.show : [];
    return {
      step,
      message: String(spec.message ?? gate?.message ?? ""),
      show,
      showImages: show.map((value) =>
        images ? imageFilesOf(value, images.runDir, images.toRunFile) : undefined,
      ),
      state: status,
      ...(gate?.since ? { since: gate.since } : {}),
      ...(gate?.deadline ? { deadline: gate.deadline } : {}),
      ...(decision
        ? { by: decision.by, at: decision.at, ...(decision.note ? { note: decision.note } : {}) }
        : {}),
    };
  });
}

/** What the last `run.waiting` event says approving starts (when the run waits now). */
export function nextEstimate(events: readonly RunEvent[]): RunEstimate | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.type === "run.waiting") return event.next;
    if (event?.type === "run.start") return undefined;
  }
  return undefined;
}

import type { JournalRecord } from "../../journal/journal-record.js";
import type { RunState } from "../../journal/journal-state.js";
import {
  type ApprovalDecision,
  decisionRecord,
  type GateState,
  gatesOf,
} from "./approval-journal.js";
import { ApprovalRefusedError } from "./errors/approval-refused-error.js";

/** What a decision on a run's gate asks. */
export interface DecisionRequest {
  /** The gate (its step id); may be left out when exactly one gate waits. */
  step?: string;
  approved: boolean;
  by: string;
  note?: string;
  /** When it is made (default: now). */
  now?: Date;
}

/**
 * Checks a decision against a run's journal and gives the record that journals it: refused
 * (ApprovalRefusedError, nothing to write) when no gate waits, when `step` names no waiting
 * gate, when several wait and none is named, or when the gate's timeout has passed.
 * `where` names the run in messages (its directory or id).
 * @example const { gate, record } = planDecision(state, { approved: true, by: "ana" }, "runs/x");
 */
export function planDecision(
  state: RunState,
  request: DecisionRequest,
  where: string,
): { gate: GateState; decision: ApprovalDecision; record: JournalRecord } {
  const waiting = gatesOf(state).filter((gate) => gate.state === "waiting");
  const ids = waiting.map((gate) => gate.step);
  const verb = request.approved ? "approve" : "reject";
  if (waiting.length === 0) {
    throw new ApprovalRefusedError(
      "not_waiting",
      `${where} is not waiting at a gate: nothing to ${verb}${state.ended?.status ? ` (it ended ${String(state.ended.status)})` : ""}`,
    );
  }
  let gate: GateState | undefined;
  if (request.step !== undefined) {
    gate = waiting.find((entry) => entry.step === request.step);
    if (!gate) {
      throw new ApprovalRefusedError(
        "unknown_gate",
        `${where} does not wait at a gate "${request.step}"; it waits at ${ids.map((id) => `"${id}"`).join(", ")}`,
        ids,
      );
    }
  } else if (waiting.length > 1) {
    throw new ApprovalRefusedError(
      "gate_ambiguous",
      `${where} waits at ${waiting.length} gates (${ids.join(", ")}); name the one to ${verb} with --step`,
      ids,
    );
  } else {
    gate = waiting[0] as GateState;
  }
  const now = request.now ?? new Date();
  if (gate.deadline && now.getTime() > Date.parse(gate.deadline)) {
    throw new ApprovalRefusedError(
      "approval_expired",
      `the gate "${gate.step}" stopped waiting at ${gate.deadline} (its timeout); resume the run to end it (the gate fails with approval_timeout)`,
      ids,
    );
  }
  const decision: ApprovalDecision = {
    approved: request.approved,
    by: request.by,
    at: now.toISOString(),
    ...(request.note ? { note: request.note } : {}),
  };
  return { gate, decision, record: decisionRecord(gate.step, decision) };
}

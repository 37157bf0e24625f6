import type { JournalRecord } from "../../journal/journal-record.js";
import { type RunState, SINGLE_ITEM } from "../../journal/journal-state.js";

/** The fact a gate journals the first time the run reaches it without a decision. */
export const APPROVAL_WAITING = "approval.waiting";
/** The fact a decision (`reelsmith approve`/`reject`, or `--auto-approve`) is journaled as. */
export const APPROVAL_DECISION = "approval.decision";

/**
 * A decision on a gate: who, when, and why.
 * @example const decision: ApprovalDecision = { approved: true, by: "ana", at: new Date().toISOString() };
 */
export interface ApprovalDecision {
  approved: boolean;
  /** Who decided (`--by`, $REELSMITH_USER, the OS user; "auto" for `--auto-approve`). */
  by: string;
  /** When, ISO 8601. */
  at: string;
  note?: string;
}

/** What a gate journals when the run first reaches it: since when it waits, and until when. */
export interface ApprovalWaiting {
  message: string;
  since: string;
  /** Past this (ISO 8601), the gate fails with approval_timeout. */
  deadline?: string;
}

/** A gate of a run and where it stands, as its journal says. */
export interface GateState {
  step: string;
  message: string;
  since?: string;
  deadline?: string;
  /** `waiting` until decided; a decision journaled but not yet acted on by a resume shows here. */
  state: "waiting" | "approved" | "rejected";
  decision?: ApprovalDecision;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function decisionOf(value: unknown): ApprovalDecision | undefined {
  if (!isRecord(value) || typeof value.approved !== "boolean") return undefined;
  return {
    approved: value.approved,
    by: String(value.by ?? "unknown"),
    at: String(value.at ?? ""),
    ...(typeof value.note === "string" && value.note ? { note: value.note } : {}),
  };
}

/**
 * Every gate the run has reached, from its replayed journal: the ones waiting (no decision
 * yet) and the decided ones (the decision, whether or not a resume has acted on it yet).
 * @example gatesOf(replayJournal(records)).filter((gate) => gate.state === "waiting")
 */
export function gatesOf(state: RunState): GateState[] {
  const gates: GateState[] = [];
  for (const [step, entry] of state.steps) {
    const facts = entry.items.get(SINGLE_ITEM)?.facts ?? {};
    const waiting = facts[APPROVAL_WAITING];
    const decision = decisionOf(facts[APPROVAL_DECISION]);
    if (!waiting && !decision) continue;
    gates.push({
      step,
      message: String(waiting?.message ?? ""),
      ...(typeof waiting?.since === "string" ? { since: waiting.since } : {}),
      ...(typeof waiting?.deadline === "string" ? { deadline: waiting.deadline } : {}),
      state: decision ? (decision.approved ? "approved" : "rejected") : "waiting",
      ...(decision ? { decision } : {}),
    });
  }
  return gates;
}

/**
 * The decision as it is read back from a journaled fact (undefined when there is none).
 * @example const decision = readDecision(journal.recall(APPROVAL_DECISION));
 */
export function readDecision(fact: unknown): ApprovalDecision | undefined {
  return decisionOf(fact);
}

/**
 * The journal record of a decision on a gate (a fact of the step's single unit).
 * @example await journal.append(decisionRecord("review", { approved: true, by: "ana", at }));
 */
export function decisionRecord(step: string, decision: ApprovalDecision): JournalRecord {
  return { type: "fact", step, name: APPROVAL_DECISION, data: { ...decision } };
}

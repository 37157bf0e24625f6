// @reelsmith/runner/runs: a run on disk, read back: its events, its journal, what it spent,
// its gates (and deciding one), its takes, and what it made.
// @example
// import { inspectRun, ledgerOf } from "@reelsmith/runner/runs";
// const run = await inspectRun("runs/my-film");
export { readEventLog } from "./events/read-event-log.js";
export { countMade, describeMade, describeOtherUnits } from "./events/run-event.js";
export { inspectRun, type RunOnDisk } from "./executor/inspect-run.js";
export type { OpenedRun } from "./executor/run-session.js";
export { readJournal } from "./journal/journal.js";
export type { JournalRecord } from "./journal/journal-record.js";
export { type Ledger, type LedgerRecord, ledgerOf } from "./ledger/ledger.js";
export {
  type ApprovalDecision,
  type GateState,
  gatesOf,
} from "./steps/approve/approval-journal.js";
export { decideApproval } from "./steps/approve/decide-approval.js";
export type { DecisionRequest } from "./steps/approve/plan-decision.js";
export { openRun } from "./takes/open-run.js";

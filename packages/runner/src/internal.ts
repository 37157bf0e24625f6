// @reelsmith/runner/internal: the ports the runner's other hosts are built from (the DBOS
// executor of @reelsmith/distributed runs `runLifecycle` over a `RunHost` of its own, with its
// budget, journal store and unit executor), and the journal readings the CLI, the studio and
// the report share. Every name here is imported by one of those packages; not a stable API
// for other users: names may change with any release. Users import `@reelsmith/runner`
// (and kind authors `@reelsmith/runner/kinds`).

export { reviveError } from "./errors/revive-error.js";
// The run lifecycle and its host.
export { serializeError } from "./errors/serialize-error.js";
export { createEventBus, type EventBus } from "./events/event-bus.js";
export { addTotals, emptyTotals, transientStages } from "./events/run-event.js";
export type { BudgetRequest, CreditBudget } from "./executor/budget.js";
export type { ExecuteResult } from "./executor/execute-pipeline.js";
export { loadForRun, runInputs } from "./executor/load-for-run.js";
export {
  accountQueue,
  accountQueuesOf,
  type QueueSlots,
  queueSlot,
  queueSlotSizes,
  queueSlots,
} from "./executor/queue-slots.js";
export { replayJournal } from "./executor/replay-journal.js";
export { runUnit, type UnitResult, type UnitWork } from "./executor/run-unit.js";
export type { LimitRunner } from "./executor/slot-pool.js";
export { stepReaders, writtenSpec } from "./executor/step-readers.js";
export type { UnitExecutor } from "./executor/unit-executor.js";
// The journal: its records, its replay into states, its ledger keys.
export type { JournalWriter } from "./journal/journal.js";
export { decodeRecord, encodeRecord } from "./journal/journal-record.js";
export {
  type ItemState,
  type RunState,
  SINGLE_ITEM,
  type StepState,
} from "./journal/journal-state.js";
export { takeKey, unitKey } from "./ledger/ledger.js";
export { journaledOptions } from "./lifecycle/journaled-options.js";
export { leastPartialEstimate, refuseOverBudget } from "./lifecycle/run-estimate-check.js";
export type { RunHost } from "./lifecycle/run-host.js";
export { runLifecycle } from "./lifecycle/run-lifecycle.js";
export {
  createRunServices,
  type RunServicesOf,
  type StepReadersOf,
} from "./lifecycle/run-services.js";
export { runBudget, runToPlay } from "./lifecycle/run-to-play.js";
export type { SubRunHost } from "./lifecycle/sub-runs.js";
export { stepPositions } from "./pipeline/step-positions.js";
export { creditCatalogs, moveToUnit, priceUnitOf } from "./plan/price-units.js";
export { planDecision } from "./steps/approve/plan-decision.js";
export { heldJobOf } from "./steps/registry.js";
export { checkPick } from "./takes/pick-take.js";
export { checkRetake } from "./takes/retake-item.js";
export { takesOf } from "./takes/take-state.js";

import type { CacheIndex } from "../cache/cache-index.js";
import type { EventBus } from "../events/event-bus.js";
import type { RunTotals } from "../events/run-event.js";
import type { ExpressionContext } from "../expressions/index.js";
import type { JournalWriter } from "../journal/journal.js";
import type { RunState } from "../journal/journal-state.js";
import type { LiveLedger } from "../ledger/ledger.js";
import type { PipelineSpec } from "../pipeline/pipeline-spec.js";
import type { StepGraph } from "../plan/build-graph.js";
import type { StepKind, StepRunContext } from "../steps/step-kind.js";
import type { CreditBudget } from "./budget.js";
import type { ExecutionExtras } from "./execution-context.js";
import type { QueueSlots } from "./queue-slots.js";
import type { StepSummary } from "./step-summary.js";
import type { UnitExecutor } from "./unit-executor.js";

/** Inputs of the executor (runPipeline prepares them). */
export interface ExecuteOptions {
  spec: PipelineSpec;
  graph: StepGraph;
  kinds: ReadonlyMap<string, StepKind>;
  inputs: Record<string, unknown>;
  run: { id: string; dir: string; name: string };
  client: StepRunContext["client"];
  bus: EventBus;
  journal: JournalWriter;
  previous?: RunState;
  /** Where and when each unit runs (default: in this process). */
  units?: UnitExecutor;
  /** Aborts everything at once: running units stop (their jobs are left to a resume). */
  signal: AbortSignal;
  /**
   * Stops the run gently: no step, item or video submission starts any more; units already
   * running finish, so every job already paid for is waited for and kept (default: `signal`).
   */
  stop?: AbortSignal;
  concurrency: number;
  /** The limits of the kinds' queues, by queue name ({@link queueSlots}). */
  slots: QueueSlots;
  budget: CreditBudget;
  cache: boolean;
  cacheDir: string;
  /** Where cache entries live (default: the file index in `cacheDir`). */
  cacheIndex?: CacheIndex;
  /** Which service makes the results, for cache keys (default: the client's base URL). */
  service?: string;
  /**
   * The run's ledger, fed with every record the units journal (seeded with a resumed run's):
   * the steps' and the run's figures are read from it. Without one (units journal elsewhere),
   * they are the sums of the units' results.
   */
  ledger?: LiveLedger;
  /** Where a step is written (`file:line:column`), for the errors of steps that fail. */
  locate?: (step: string, field?: string) => string | undefined;
  /**
   * A session about one unit of a resumed run (a retake, a pick): only its step and the steps
   * downstream of it may run; every other step keeps what its journal says, and the step's
   * other items are reused or left as they were (never made here).
   */
  focus?: { step: string; index?: number };
  /**
   * Asked once a step's units are known (a fan-out's list evaluated), before the first of them
   * runs: the requests of the units still to make. Throws to stop the step before any of them
   * is sent (a budget that cannot pay for all of them).
   */
  admit?: (step: {
    id: string;
    kind: StepKind;
    /** How many units are still to make. */
    units: number;
    /**
     * The requests of those whose request is known now (a sequential step's read the one
     * before), each made as it is read: iterate them once.
     */
    specs: Iterable<Record<string, unknown>>;
  }) => Promise<void>;
  extras: ExecutionExtras;
}

/** What the executor returns. */
export interface ExecuteResult {
  steps: Record<string, StepSummary>;
  totals: RunTotals;
  /** The first failure that was not continued (the run's error), if any. */
  error?: unknown;
  cancelled: boolean;
  /** Gates the run stopped at (steps that wait for a decision from outside), in order. */
  waiting: string[];
  context: ExpressionContext;
}

import type { CacheIndex } from "../cache/cache-index.js";
import type { EventBus } from "../events/event-bus.js";
import type { RunStatus, RunTotals, SerializedError } from "../events/run-event.js";
import type { CreditBudget } from "../executor/budget.js";
import type { ExecuteOptions, ExecuteResult } from "../executor/execute-pipeline.js";
import type { ExecutionExtras } from "../executor/execution-context.js";
import type { QueueSlots } from "../executor/queue-slots.js";
import type { UnitExecutor } from "../executor/unit-executor.js";
import type { JournalWriter } from "../journal/journal.js";
import type { JournalRecord } from "../journal/journal-record.js";
import type { RunState } from "../journal/journal-state.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import type { AnyStepKind, ModelCatalogs, StepKindSpec } from "../steps/step-kind.js";

/** Where a run's journal lives: what it holds, and where its records go. */
export interface RunJournalStore {
  /** Every record of the run so far (every session, every worker). */
  read(): Promise<readonly JournalRecord[]>;
  append(record: JournalRecord): Promise<void>;
  /** True when appended records reach the store in order (see `JournalWriter.ordered`). */
  readonly ordered?: boolean;
  close?(): Promise<void>;
  /**
   * The state of the records the first `read()` gave, when whoever read them replayed them
   * already (a resume): handed over once, so that a run replays its journal once.
   */
  replayed?(): RunState | undefined;
  /**
   * True when every record of the run passes through `append` (one process writes it): the
   * run's ledger is then kept as records are appended; otherwise (units journal on other
   * workers) the figures are read back from the store.
   */
  whole: boolean;
}

/** The run record a host keeps (run.json, or a row of the runs table), at the start and end. */
export type RunRecord =
  | {
      phase: "start";
      runId: string;
      name: string;
      inputs: Record<string, unknown>;
      startedAt: string;
      resumedAt?: string;
      /**
       * The journal's `run.start` record (a new run): the host writes it with its run record
       * (a run directory: both appear at once, before any request).
       */
      record?: JournalRecord;
    }
  | {
      phase: "end";
      status: RunStatus;
      outputs: Record<string, unknown>;
      totals: RunTotals;
      error?: SerializedError;
      endedAt: string;
      /**
       * The journal's `run.end` record: the host writes it with its run record (the runs
       * table: in one transaction), and may say the status it stored instead (a cancel that
       * came first).
       */
      record: JournalRecord;
    };

/**
 * What a run's lifecycle is played against: a host (the local executor, the DBOS one) gives
 * the journal store, the budget, the unit executor, limits, signals, the client, the cache
 * and where the run record lives. The lifecycle knows no host; a host knows no step kind.
 * @example await runLifecycle(run, { bus, journal, runDir, saveRunRecord, createBudget, … });
 */
export interface RunHost {
  bus: EventBus;
  journal: RunJournalStore;
  /** The run directory (a new local run's is known once its start record is saved). */
  readonly runDir: string;
  /** Keeps the run record; at the end, the status stored when the host knows better. */
  saveRunRecord(record: RunRecord): Promise<RunStatus | undefined>;
  /** The run's budget; `spentBefore` is what its ledger says a resumed run spent already. */
  createBudget(budget: {
    maxCredits: number | undefined;
    spentBefore: number;
    onReached: (credits: number, maxCredits: number) => void;
  }): Promise<CreditBudget> | CreditBudget;
  /** Where and when each unit runs (default: in this process). */
  units?: UnitExecutor;
  limits: { concurrency: number; slots: QueueSlots };
  signal: AbortSignal;
  stop?: AbortSignal;
  client: ExecuteOptions["client"];
  cache: {
    enabled: boolean;
    dir: string;
    index?: CacheIndex;
    /** The service that makes the results, for cache keys. */
    service: string;
  };
  /** The directory a pipeline's relative paths start from. */
  pipelineDir: string;
  /**
   * The services a kind reaches beyond the executor's own (sub-runs, probes, readers …),
   * made with `createRunServices` from what the host has.
   */
  extras(budget: CreditBudget, previous: RunState | undefined): ExecutionExtras;
  /** A focused session's own records, before any step runs (after `run.resume`). */
  begin?(journal: JournalWriter, state: RunState): Promise<void>;
  /**
   * After the DAG ran, before the run settles (a retake keeps its files). `previous` is the
   * journal's first `replayed` records replayed; the records after them are the run's since.
   */
  afterExecute?(
    result: ExecuteResult,
    previous: RunState | undefined,
    journal: JournalWriter,
    replayed: number,
  ): Promise<void>;
  /** An error seen beyond this process that is the run's headline (a budget's refusal). */
  settledError?(): Promise<unknown>;
  /** The run stops at its gates: what the host does before it says so (a durable wait). */
  onWaiting?(result: ExecuteResult): Promise<void>;
}

/** The run a lifecycle plays: its pipeline, inputs and what it was started with. */
export interface RunToPlay {
  pipeline: LoadedPipeline;
  inputs: Record<string, unknown>;
  runId: string;
  name: string;
  startedAt: string;
  /** The options the run journals (in `run.start`, or a session's `run.resume`). */
  journaled: Record<string, unknown>;
  /** The budget the caller gave (journaled in `run.start`). */
  maxCredits?: number | undefined;
  /** The budget the run plays with (the caller's, the journaled one, else the pipeline's). */
  budgetMax?: number | undefined;
  /** False: no estimate of its own (a sub-run spends from its parent's, checked there). */
  estimate: boolean;
  /** A focused session (a retake, a pick): one unit, one unit's estimate when it pays. */
  focus?: { step: string; index?: number; paid: boolean } | undefined;
  /** A fan-out the budget cannot pay for whole still starts (`allowPartial`). */
  allowPartial?: boolean | undefined;
  kinds: ReadonlyMap<string, AnyStepKind>;
  catalogs?: ModelCatalogs | undefined;
  stepKinds?: readonly (AnyStepKind | StepKindSpec<never>)[] | undefined;
  /** Where a step is written, for the errors of steps that fail. */
  locate?: (step: string, field?: string) => string | undefined;
}

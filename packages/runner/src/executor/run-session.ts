import type { DistributiveOmit, RunEvent } from "../events/run-event.js";
import type { JournalWriter } from "../journal/journal.js";
import type { RunState } from "../journal/journal-state.js";
import type { Ledger } from "../ledger/ledger.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import type { PipelineSpec } from "../pipeline/pipeline-spec.js";
import type { AnyStepKind } from "../steps/step-kind.js";
import type { RunOnDisk } from "./inspect-run.js";

/** What a session's hooks get: the run as it is on disk, under its lock. */
export interface SessionRun {
  runDir: string;
  runId: string;
  name: string;
  journal: JournalWriter;
  /** The journal replayed. */
  state: RunState;
  spec: PipelineSpec;
  kinds: ReadonlyMap<string, AnyStepKind>;
  inputs: Record<string, unknown>;
  /** The run's ledger as its journal stands now (what each take cost). */
  ledger(): Ledger;
  /** Emits an event of the run. */
  emit(event: DistributiveOmit<RunEvent, "seq" | "time">): void;
}

/** A run being resumed, as the resume read it under its lock: once, for the session too. */
export interface LoadedRun {
  onDisk: RunOnDisk;
  /** Its pipeline, loaded, validated and found unchanged. */
  pipeline: LoadedPipeline;
}

/**
 * A run opened for a session before it starts (`openRun`): read once under its lock, which
 * it holds until `release()`; its pipeline validated when `validated` (else the run validates
 * its text, without reading the file again).
 * @example const opened = await openRun("runs/x"); try { await retakeItem(opened, request) } finally { opened.release() }
 */
export interface OpenedRun extends LoadedRun {
  validated: boolean;
  /** Lets the run's lock go. */
  release(): void;
}

/**
 * Makes a focused session from the run the resume loaded (its checks run then, before any
 * request: a session that cannot be made throws, and nothing is written).
 * @example const prepare: PrepareSession = async ({ onDisk, pipeline }) => ({ focus, paid: true, begin });
 */
export type PrepareSession = (loaded: LoadedRun) => Promise<FocusedSession>;

/**
 * A resume of a run that changes one of its units (a retake, a pick): only that unit's step
 * and what is downstream of it run, and the session journals its own records first.
 * @example await runWithBus(undefined, { resume: runDir }, bus, async () => ({ focus: { step: "clips", index: 1 }, paid: true, begin }));
 */
export interface FocusedSession {
  /** The unit the session is about. */
  focus: { step: string; index?: number };
  /** True when it pays for its unit (its estimate is one unit of its step); false: nothing. */
  paid: boolean;
  /** Under the run's lock, before any step runs (after `run.resume`): its own records. */
  begin(run: SessionRun): Promise<void>;
}

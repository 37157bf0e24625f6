import { dirname, join } from "node:path";
import type { EventBus } from "../events/event-bus.js";
import { createBudget } from "../executor/budget.js";
import type { ExecuteOptions } from "../executor/execute-pipeline.js";
import { runQueueSlots } from "../executor/queue-slots.js";
import { replayJournal } from "../executor/replay-journal.js";
import { createRunDirectory, writeJsonAtomic } from "../executor/run-directory.js";
import type { FocusedSession, SessionRun } from "../executor/run-session.js";
import type { JournalWriter } from "../journal/journal.js";
import { encodeRecord } from "../journal/journal-record.js";
import type { RunState } from "../journal/journal-state.js";
import { acquireRunLock } from "../journal/run-lock.js";
import type { RunOptions, RunResult } from "../run-options.js";
import type { AnyStepKind, ModelCatalogs } from "../steps/step-kind.js";
import { hasTakes, keepFinishedTakes } from "../takes/keep-take.js";
import { type JournalRead, localJournal } from "./local-journal.js";
import type { RunHost } from "./run-host.js";
import { createRunServices } from "./run-services.js";

export type { JournalRead } from "./local-journal.js";

import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import { runSignals } from "./run-signals.js";

/** What the local host is set up from: the run prepared in this process. */
export interface LocalRun {
  options: RunOptions;
  bus: EventBus;
  pipeline: LoadedPipeline;
  inputs: Record<string, unknown>;
  runId: string;
  name: string;
  kinds: ReadonlyMap<string, AnyStepKind>;
  /** The model catalogs the run knows: its parent's (a sub-run), else its own with what the service lists. */
  catalogs?: ModelCatalogs | undefined;
  /** A resumed run's directory (a new run's is made once its start is saved). */
  runDir?: string | undefined;
  /** A resumed run's journal as the resume read it. */
  read?: JournalRead | undefined;
  client: ExecuteOptions["client"];
  cache: RunHost["cache"];
  session?: FocusedSession | undefined;
  /** What run.json says beyond the run record (the pipeline, the service). */
  runJson: Record<string, unknown>;
  /** Runs a sub-pipeline file to its end (the runner's `runPipeline`). */
  runSub: (file: string, options: RunOptions) => Promise<RunResult>;
}

/**
 * The local host: the file journal in the run directory (made, with run.json and the run's
 * `run.start`, at once), the run's lock, run.json, in-process limits (p-limit), the budget in
 * memory, and sub-runs run in this process. `release()` lets the run's lock go.
 * @example const host = localHost(run); try { await runLifecycle(play, host) } finally { host.release() }
 */
export function localHost(run: LocalRun): RunHost & { release(): void } {
  const { options, bus } = run;
  let runDir = run.runDir ?? "";
  // One process drives a run at a time; a lock left by a killed process is taken over.
  let releaseLock = runDir && !run.read?.locked ? acquireRunLock(runDir) : () => {};
  const journalStore = localJournal(() => runDir, run.read);
  const signals = runSignals(options.signal, options.stopSignal);
  const pipelineDir = run.pipeline.path === "<inline>" ? process.cwd() : dirname(run.pipeline.path);
  const slots =
    options.subRunOf?.slots ?? options.sharedSlots ?? runQueueSlots(run.kinds.values(), options);
  let runJson: Record<string, unknown> = run.runJson;
  const sessionRun = (journal: JournalWriter, state: RunState): SessionRun => ({
    runDir,
    runId: run.runId,
    name: run.name,
    journal,
    state,
    spec: run.pipeline.spec,
    kinds: run.kinds,
    inputs: run.inputs,
    ledger: journalStore.ledger,
    emit: (event) => bus.emit(event),
  });
  return {
    bus,
    get runDir() {
      return runDir;
    },
    journal: journalStore,
    async saveRunRecord(record) {
      if (record.phase === "end") {
        const { phase: _, record: end, ...ended } = record;
        // One flush's wait: run.json's and the journal's at once, then run.json's rename.
        await writeJsonAtomic(
          join(runDir, "run.json"),
          { ...runJson, ...ended },
          this.journal.append(end),
        );
        return undefined;
      }
      const { phase: _, record: start, ...started } = record;
      runJson = { ...runJson, ...started, status: "running" };
      if (start) {
        // Pipeline copy, inputs, run.json and run.start appear at once, before any request.
        runDir = await createRunDirectory(
          { runsRoot: options.runsRoot ?? "runs", name: run.name, ...pick(options) },
          {
            "pipeline.yaml": run.pipeline.source,
            "run.json": `${JSON.stringify(runJson, null, 2)}\n`,
            "journal.jsonl": encodeRecord(start),
          },
        );
        releaseLock = acquireRunLock(runDir);
      } else await writeJsonAtomic(join(runDir, "run.json"), runJson);
      bus.attachFile(join(runDir, "events.ndjson"));
      return undefined;
    },
    createBudget({ maxCredits, spentBefore, onReached }) {
      if (options.subRunOf) return options.subRunOf.budget;
      const budget = createBudget(maxCredits, onReached);
      // A resumed run already spent what its ledger says (its own sub-runs' spending included).
      if (spentBefore > 0) budget.spend(spentBefore);
      return budget;
    },
    limits: { concurrency: options.concurrency ?? 8, slots },
    signal: signals.signal,
    stop: signals.stop,
    client: run.client,
    cache: run.cache,
    pipelineDir,
    extras: (budget, previous) =>
      createRunServices({
        runId: run.runId,
        pipelineDir,
        budget,
        pipeline: run.pipeline,
        kinds: run.kinds,
        previous,
        catalogs: run.catalogs,
        resubmitLostJobs: options.resubmitLostJobs,
        autoApprove: options.autoApprove,
        fence: options.subRunOf?.fence,
        // Sub-runs run in this process, with this run's options, one level deeper.
        subRuns: {
          depth: options.subRunOf?.depth ?? 0,
          trip: options.subRunOf?.trip ?? {},
          runDir: () => runDir,
          slots,
          client: run.client,
          runPipeline: (file, given) =>
            run.runSub(file, { ...options, ...given, resume: undefined, onEvent: undefined }),
        },
      }),
    ...(run.session
      ? {
          begin: (journal, state) =>
            (run.session as FocusedSession).begin(sessionRun(journal, state)),
        }
      : {}),
    async afterExecute(_result, previous, writer, replayed) {
      if (!run.session && !hasTakes(previous)) return;
      // A retake that succeeded (now, or before a kill) keeps its files beside the picked ones.
      const state = replayJournal(journalStore.records().slice(replayed), previous);
      await keepFinishedTakes(sessionRun(writer, state)).catch((error: unknown) =>
        bus.emit({
          type: "log",
          level: "warn",
          message: `a new take could not be kept beside the picked one: ${(error as Error).message}`,
        }),
      );
    },
    release() {
      signals.dispose();
      releaseLock();
    },
  };
}

/** The run directory the caller named, if any. */
function pick(options: RunOptions): { runDir?: string } {
  return options.runDir ? { runDir: options.runDir } : {};
}

/** The model catalogs a run is given: its parent's (a sub-run), else its own. */
export function catalogs(options: RunOptions): RunOptions["catalogs"] {
  return options.subRunOf?.catalogs ?? options.catalogs;
}

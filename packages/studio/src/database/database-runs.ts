import { realpathSync } from "node:fs";
import { type Coordinator, cancelRun, decideRun, resumeRun } from "@reelsmith/distributed";
import {
  lastEventId,
  type RunWorker,
  readRunRecord,
  runChangeStamp,
  runWorkers,
} from "@reelsmith/distributed/internal";
import type { RunJson, RunRecord } from "@reelsmith/report";
import { buildModel, type ReportModel } from "@reelsmith/report/page";
import { replayJournal } from "@reelsmith/runner/internal";
import type { StudioAction } from "../actions/sessions.js";
import { StudioActionError } from "../actions/sessions.js";
import { type RunSummary, summaryOf } from "../runs/list-runs.js";
import { runDirectory } from "../security/safe-path.js";

/** How many of the database's newest runs the runs list shows. */
const LISTED = 50;

/** A run of the database as a run page shows it. */
export interface DatabaseRunView {
  runId: string;
  model: ReportModel;
  /** Its directory as the workers mirror it (the run row's). */
  runDir: string;
  /** True when that directory is inside the studio's runs directory (its media are served). */
  served: boolean;
  /** The run has ended (its workers hold nothing of it). */
  ended: boolean;
  /** Cancelling was asked and the run has not ended yet. */
  cancelling: boolean;
  workers: RunWorker[];
}

/** What an action on a run of the database answered. */
export interface DatabaseActionResult {
  status: number;
  body: Record<string, unknown>;
}

/** The refusal of a retake or a pick of a run on many machines (as the runner's with --database). */
export function takeRefusal(action: string): StudioActionError {
  return new StudioActionError(
    `${action} is not available for a run made with --database: its clips live in its workers' run directories and its state in the database (reelsmith ${action} refuses --database too). Retake and pick a local run (reelsmith run … without --database).`,
    409,
  );
}

/**
 * The runs of the shared database (`run --database`), for the studio: listed beside the local
 * ones, each page drawn from the tables (which stay right when a worker dies before mirroring
 * its directory), and acted on through the distributed API (decideRun, cancelRun, resumeRun),
 * so that the workers go on with the run. Retake and pick are refused.
 * @example const runs = createDatabaseRuns(coordinator, "/srv/runs"); await runs.list();
 */
export function createDatabaseRuns(coordinator: Coordinator, runsDir: string) {
  /** The studio's own run directory for the run, when it is the run row's directory. */
  const localDirectory = (runId: string, runDir: string): string | undefined => {
    const local = runDirectory(runsDir, runId);
    if (!local) return undefined;
    try {
      return realpathSync(local) === realpathSync(runDir) ? local : undefined;
    } catch {
      return undefined;
    }
  };

  const record = (runId: string) => readRecord(coordinator, runId);

  return {
    /** Whether the database holds a run of this id. */
    async has(runId: string): Promise<boolean> {
      return (await coordinator.store.getRun(runId)) !== undefined;
    },
    /** The newest runs of the database as lines of the runs list, with their workers. */
    async list(): Promise<RunSummary[]> {
      const rows = await coordinator.store.listRuns(LISTED);
      const lines = await Promise.all(
        rows.map(async (row) => {
          const read = await record(row.runId).catch(() => undefined);
          if (!read) return undefined;
          const workers = await runWorkers(coordinator, row.runId).catch(() => []);
          const status = row.cancelRequested && !row.endedAt ? "cancelling" : read.model.status;
          return {
            ...summaryOf(row.runId, read.model),
            status,
            database: true as const,
            workers,
          };
        }),
      );
      return lines.filter((line): line is NonNullable<typeof line> => line !== undefined);
    },
    /** A stamp that changes whenever a run of the list (or `runId`) changes. */
    stamp(runId?: string): Promise<string> {
      return runChangeStamp(coordinator, runId ? { runId } : { limit: LISTED });
    },
    /** A run's page, read from the database. */
    async view(runId: string): Promise<DatabaseRunView | undefined> {
      const read = await record(runId);
      if (!read) return undefined;
      const { run } = read.stored;
      return {
        runId,
        model: read.model,
        runDir: run.runDir,
        served: localDirectory(runId, run.runDir) !== undefined,
        ended: run.endedAt !== undefined,
        cancelling: run.cancelRequested && run.endedAt === undefined,
        workers: await runWorkers(coordinator, runId).catch(() => []),
      };
    },
    /** The run's events stored after `afterId` (as `followRun` reads them). */
    eventsAfter(runId: string, afterId: number) {
      return coordinator.store.eventsAfter(runId, afterId);
    },
    /** The id of the run's newest stored event. */
    lastEventId(runId: string): Promise<number> {
      return lastEventId(coordinator, runId);
    },
    /**
     * Acts on a run through the distributed API: a gate's decision (journaled in the database,
     * sent to the run's wait: its workers go on with it), cancel, resume; retake and pick are
     * refused. A refusal is thrown as the runner's or the studio's error.
     */
    async act(
      runId: string,
      action: StudioAction | { action: "cancel" },
    ): Promise<DatabaseActionResult> {
      return actOnRun(coordinator, runId, action);
    },
  };
}

/** A run of the database as the report reads it, with its stored record. */
async function readRecord(coordinator: Coordinator, runId: string) {
  const stored = await readRunRecord(coordinator, runId);
  if (!stored) return undefined;
  const report: RunRecord = {
    runDir: stored.run.runDir,
    runJson: stored.runJson as RunJson,
    journal: stored.journal,
    state: replayJournal(stored.journal),
    events: stored.events,
    pipelineSource: stored.run.pipelineSource,
    locked: false,
    subRuns: [],
  };
  return { stored, model: buildModel(report) };
}

/** A studio action on a database run, through the distributed API. */
async function actOnRun(
  coordinator: Coordinator,
  runId: string,
  action: StudioAction | { action: "cancel" },
): Promise<DatabaseActionResult> {
  switch (action.action) {
    case "approve":
    case "reject": {
      const recorded = await decideRun(coordinator, runId, {
        approved: action.action === "approve",
        by: action.by,
        ...(action.step ? { step: action.step } : {}),
        ...(action.note ? { note: action.note } : {}),
      });
      return { status: 202, body: { started: "workers", step: recorded.step } };
    }
    case "cancel": {
      const cancelled = await cancelRun(coordinator, runId);
      if (cancelled.alreadyEnded)
        throw new StudioActionError(`run ${runId} has already ended; nothing to cancel`);
      return {
        status: 202,
        body: { stopping: true, cancelledUnits: cancelled.cancelledUnits },
      };
    }
    case "resume": {
      const run = await coordinator.store.getRun(runId);
      if (run?.status === "waiting")
        throw new StudioActionError(
          `run ${runId} waits at a gate: approve or reject it, and its workers go on with it`,
        );
      try {
        const attempt = await resumeRun(coordinator, runId);
        return { status: 202, body: { started: "workers", attempt } };
      } catch (error) {
        throw new StudioActionError(error instanceof Error ? error.message : String(error));
      }
    }
    default:
      throw takeRefusal(action.action);
  }
}

/** The studio's view of the shared database. */
export type DatabaseRuns = ReturnType<typeof createDatabaseRuns>;

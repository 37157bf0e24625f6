import { existsSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { PipelineChangedError } from "../errors/pipeline-changed-error.js";
import { ResumeError } from "../errors/resume-error.js";
import type { RunEvent } from "../events/run-event.js";
import { checkModels } from "../executor/check-models.js";
import { createRunClient } from "../executor/create-run-client.js";
import { inspectRun } from "../executor/inspect-run.js";
import { loadForRun } from "../executor/load-for-run.js";
import { runQueueSlots } from "../executor/queue-slots.js";
import { createRunDirectory, newRunId } from "../executor/run-directory.js";
import { acquireRunLock } from "../journal/run-lock.js";
import { ledgerOf } from "../ledger/ledger.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import type { RunOptions } from "../run-options.js";
import { runPipeline } from "../run-pipeline.js";
import { kindsByName } from "../steps/registry.js";
import type { StepKindSpec } from "../steps/step-kind.js";
import type { BatchEvent } from "./batch-event.js";
import type { BatchRowHost, BatchRowOutcome } from "./batch-row-host.js";
import {
  BATCH_JOURNAL,
  type BatchJson,
  type BatchKept,
  type BatchRecord,
  type BatchRowState,
  type BatchRowStatus,
  type BatchStatus,
  batchPath,
  foldBatch,
  openBatchJournal,
  readBatchJournal,
  writeBatchJson,
} from "./batch-store.js";
import {
  type PlannedRow,
  type PlanRowsOptions,
  planRows,
  rowEstimate,
  rowsCacheOf,
  rowUpperBound,
  sumEstimates,
} from "./plan-batch.js";

/** Options of {@link runBatch} and {@link resumeBatch}: a run's options, for every row. */
export interface BatchOptions
  extends Omit<
    RunOptions,
    | "inputs"
    | "runDir"
    | "resume"
    | "onEvent"
    | "subRunOf"
    | "keep"
    | "sharedSlots"
    | "builtInService"
  > {
  /** Where new batch directories go (default "runs"). */
  runsRoot?: string;
  /** Rows run at once (default 2); they share the queues' slots (`slots`) as one run's steps do. */
  parallel?: number;
  /**
   * The whole batch's credit budget: a row is started only when its certain cost fits in
   * what is left (with `allowPartial`, the last row makes what fits). A row's own
   * `max_credits` still holds.
   */
  maxCredits?: number;
  /** The service is a simulator started for this batch (recorded; see `RunOptions`). */
  builtInService?: boolean;
  /** Receives every event of the batch and of its rows' runs. */
  onEvent?: (event: BatchEvent) => void;
  /**
   * Where the rows run when not in this process (e.g. the workers of a shared database);
   * the batch's journal, admissions and report stay here. Kept by name in the journal: a
   * batch is resumed with a host of the same name only.
   */
  rowHost?: BatchRowHost;
}

/** What a batch gives back. */
export interface BatchResult {
  status: BatchStatus;
  batchId: string;
  batchDir: string;
  credits: number;
  rows: BatchRowState[];
  durationMs: number;
}

/** What a batch is driven with: its options, and the cache its rows are served from. */
type DriveOptions = BatchOptions & { rowsCache?: PlanRowsOptions["rowsCache"] };

/** A batch being driven: its journal, its rows and what its budget has left. */
interface Drive {
  batchDir: string;
  journal: ReturnType<typeof openBatchJournal>;
  summary: BatchJson;
  states: Map<string, BatchRowState>;
  pipeline: LoadedPipeline;
  options: DriveOptions;
  kept: BatchKept;
  runOptions: RunOptions;
  /** The last write of `batch.json` (they are made one after another). */
  saving: Promise<void>;
}

const now = () => new Date().toISOString();

function kept(options: BatchOptions, before: BatchKept = {}): BatchKept {
  const pick = <K extends keyof BatchKept>(name: K): Partial<BatchKept> => {
    const value = (options as BatchKept)[name] ?? before[name];
    return value === undefined ? {} : { [name]: value };
  };
  return {
    ...pick("maxCredits"),
    ...pick("parallel"),
    ...pick("allowPartial"),
    ...pick("autoApprove"),
    ...pick("cache"),
    ...pick("concurrency"),
    ...pick("slots"),
    ...pick("accountLimits"),
  };
}

async function loadBatchPipeline(path: string, options: BatchOptions) {
  return await loadForRun(path, {
    validate: true,
    ...(options.catalogs ? { catalogs: options.catalogs } : {}),
    ...(options.stepKinds
      ? { stepKinds: options.stepKinds as readonly StepKindSpec<never>[] }
      : {}),
  });
}

/** The models the service lists, learnt once for the whole batch (one free request). */
async function learnCatalogs(pipeline: LoadedPipeline, options: BatchOptions) {
  const client = createRunClient(options as RunOptions);
  const catalogs = await checkModels(pipeline, client, options.catalogs, {
    kinds: kindsByName(options.stepKinds),
    signal: options.signal,
    warn: (message) => options.onEvent?.({ type: "batch.log", level: "warn", message }),
  });
  return { client, catalogs };
}

/**
 * Runs a pipeline once per row of an inputs file (CSV, JSONL or YAML), `parallel` rows at
 * once, in a new batch directory (`<runsRoot>/<time>-<name>-batch/`) holding a run directory
 * per row (`rows/<id>/`), the batch journal and `batch.json`. Every row is checked before
 * anything is paid (a bad row throws BatchRowsError naming its line and field); the whole
 * batch keeps within `maxCredits`. Never throws for a failing row: its status says it.
 * @example
 * const result = await runBatch("storyboard.yaml", "stories.csv", { parallel: 2, maxCredits: 100, onEvent: console.log });
 */
export async function runBatch(
  pipelinePath: string,
  inputsFile: string,
  options: BatchOptions = {},
): Promise<BatchResult> {
  const started = Date.now();
  let pipeline = await loadBatchPipeline(pipelinePath, options);
  const { client, catalogs } = await learnCatalogs(pipeline, options);
  if (catalogs && catalogs !== options.catalogs)
    pipeline = await loadBatchPipeline(pipelinePath, { ...options, catalogs });
  const given = {
    ...options,
    client,
    ...(catalogs ? { catalogs } : {}),
    rowsCache: rowsCacheOf(options, client),
  };
  const file = resolve(inputsFile);
  const { rows } = await planRows(pipeline, file, given);
  const name = `${pipeline.spec.name ?? "run"}-batch`;
  // Paths are kept relative to the batch directory (a child of runsRoot), so that a batch
  // directory kept as a CI artifact and restored in another checkout resumes.
  const runsRoot = resolve(options.runsRoot ?? "runs");
  const fromBatch = (path: string) => relative(join(runsRoot, name), path);
  const startRecord: BatchRecord = {
    type: "batch.start",
    at: now(),
    batchId: newRunId(),
    name,
    pipeline: { path: fromBatch(pipeline.path), hash: pipeline.hash },
    inputsFile: fromBatch(file),
    options: kept(options),
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    ...(options.builtInService ? { builtInService: true } : {}),
    ...(options.rowHost ? { rowHost: options.rowHost.name } : {}),
  };
  const batchDir = await createRunDirectory(
    { runsRoot, name },
    { [BATCH_JOURNAL]: `${JSON.stringify(startRecord)}\n` },
  );
  return drive(batchDir, [startRecord], pipeline, rows, given, started, false);
}

/**
 * Finishes a batch: rows that succeeded are never run (nor paid) again; a row whose run was
 * started is resumed by the runner's own resume (submitted jobs re-attached); rows added to
 * the inputs file since run now. Options not given are the ones the batch started with.
 * @example await resumeBatch("runs/20260101-120000-storyboard-batch", { onEvent: console.log });
 */
export async function resumeBatch(
  batchDir: string,
  options: BatchOptions = {},
): Promise<BatchResult> {
  const started = Date.now();
  const dir = resolve(batchDir);
  const records = readBatchJournal(dir);
  const start = records[0] as Extract<BatchRecord, { type: "batch.start" }>;
  if (start.rowHost !== options.rowHost?.name)
    throw new ResumeError(
      dir,
      start.rowHost
        ? `its rows run on the ${start.rowHost}'s workers: resume it with the same ${start.rowHost} (with the CLI: --database …), or its finished rows would be paid again`
        : `its rows ran in the process that started it: resume it without --database`,
    );
  const inputsFile = batchPath(dir, start.inputsFile);
  if (!existsSync(inputsFile))
    throw new ResumeError(
      dir,
      `its inputs file ${inputsFile} is gone (the batch keeps it as ${start.inputsFile}, relative to the batch directory: restore the batch directory where it was beside the inputs file)`,
    );
  const pipelinePath = batchPath(dir, start.pipeline.path);
  if (!existsSync(pipelinePath))
    throw new ResumeError(
      dir,
      `its pipeline ${pipelinePath} is gone (the batch keeps it as ${start.pipeline.path}, relative to the batch directory: restore the batch directory where it was beside the pipeline)`,
    );
  let pipeline = await loadBatchPipeline(pipelinePath, options);
  if (pipeline.hash !== start.pipeline.hash)
    throw new PipelineChangedError(dir, start.pipeline.hash, pipeline.hash);
  const merged: BatchOptions = {
    ...options,
    ...kept(options, start.options),
    ...(options.baseURL || options.client || !start.baseURL ? {} : { baseURL: start.baseURL }),
  };
  const { client, catalogs } = await learnCatalogs(pipeline, merged);
  if (catalogs && catalogs !== merged.catalogs)
    pipeline = await loadBatchPipeline(pipelinePath, { ...merged, catalogs });
  const given = {
    ...merged,
    client,
    ...(catalogs ? { catalogs } : {}),
    rowsCache: rowsCacheOf(merged, client),
  };
  const { rows } = await planRows(pipeline, inputsFile, given);
  return drive(dir, records, pipeline, rows, given, started, true);
}

/** The first video among a run's outputs (a path), for the batch's report. */
function finalVideo(result: BatchRowOutcome): string | undefined {
  for (const value of Object.values(result.outputs ?? {})) {
    if (typeof value === "string" && /\.(mp4|mov|webm|mkv)$/i.test(value))
      return isAbsolute(value) ? value : resolve(result.runDir, value);
  }
  return undefined;
}

function rowStatus(status: BatchRowOutcome["status"]): BatchRowStatus {
  return status === "rejected" ? "failed" : (status as BatchRowStatus);
}

/** The batch's status from its rows: cancelled, else failed, else budget, else waiting. */
function batchStatus(states: Iterable<BatchRowState>, cancelled: boolean): BatchStatus {
  const all = [...states].map((state) => state.status);
  if (cancelled) return "cancelled";
  if (all.includes("failed")) return "failed";
  if (all.includes("budget_reached")) return "budget_reached";
  if (all.includes("waiting")) return "waiting";
  if (all.some((status) => status !== "succeeded")) return "cancelled";
  return "succeeded";
}

async function drive(
  batchDir: string,
  records: BatchRecord[],
  pipeline: LoadedPipeline & { hash: string },
  rows: PlannedRow[],
  options: DriveOptions,
  started: number,
  resumed: boolean,
): Promise<BatchResult> {
  const release = acquireRunLock(batchDir);
  const journal = openBatchJournal(batchDir);
  try {
    const start = records[0] as Extract<BatchRecord, { type: "batch.start" }>;
    const batchKept = kept(options, start.options);
    if (resumed) journal.append({ type: "batch.resume", at: now(), options: batchKept });
    const states = foldBatch(records);
    for (const row of rows) {
      if (!states.has(row.id))
        states.set(row.id, { id: row.id, line: row.line, status: "pending", credits: 0 });
      else (states.get(row.id) as BatchRowState).line = row.line;
    }
    const summary: BatchJson = {
      batchId: start.batchId,
      name: start.name,
      pipeline: start.pipeline,
      inputsFile: start.inputsFile,
      options: batchKept,
      ...(start.baseURL ? { baseURL: start.baseURL } : {}),
      ...(start.builtInService ? { builtInService: true } : {}),
      ...(start.rowHost ? { rowHost: start.rowHost } : {}),
      startedAt: start.at,
      updatedAt: now(),
      status: "running",
      credits: 0,
      rows: [],
    };
    const run: Drive = {
      batchDir,
      journal,
      summary,
      states,
      pipeline,
      options,
      kept: batchKept,
      runOptions: runOptionsOf(options),
      saving: Promise.resolve(),
    };
    const cancelled = await schedule(run, rows, resumed);
    const status = batchStatus(
      rows.map((row) => states.get(row.id) as BatchRowState),
      cancelled,
    );
    const credits = [...states.values()].reduce((sum, state) => sum + state.credits, 0);
    journal.append({ type: "batch.end", at: now(), status, credits });
    await saveSummary(run, status);
    const counts: Partial<Record<BatchRowStatus, number>> = {};
    for (const row of rows) {
      const state = states.get(row.id) as BatchRowState;
      counts[state.status] = (counts[state.status] ?? 0) + 1;
    }
    const durationMs = Date.now() - started;
    options.onEvent?.({ type: "batch.end", batchDir, status, credits, counts, durationMs });
    return {
      status,
      batchId: start.batchId,
      batchDir,
      credits,
      rows: summary.rows,
      durationMs,
    };
  } finally {
    journal.close();
    release();
  }
}

/** What every row's run is given: the batch's options, the queues' slots shared by all rows. */
function runOptionsOf(options: BatchOptions): RunOptions {
  const {
    parallel: _parallel,
    maxCredits: _maxCredits,
    runsRoot: _runsRoot,
    onEvent: _onEvent,
    ...rest
  } = options;
  return {
    ...rest,
    sharedSlots: runQueueSlots(kindsByName(options.stepKinds).values(), options),
  };
}

/** Rewrites `batch.json` from the rows' states; one write at a time (rows end together). */
function saveSummary(run: Drive, status: BatchJson["status"]): Promise<void> {
  run.saving = run.saving.then(async () => {
    run.summary.rows = [...run.states.values()].sort((a, b) => a.line - b.line);
    run.summary.credits = run.summary.rows.reduce((sum, row) => sum + row.credits, 0);
    run.summary.status = status;
    run.summary.updatedAt = now();
    await writeBatchJson(run.batchDir, run.summary);
    await run.options.rowHost?.publish?.(run.summary, run.batchDir);
  });
  return run.saving;
}

/** A row still to run: where its run goes, what it spent before, what is left to pay. */
type RowToRun = PlannedRow & {
  spentBefore: number;
  runDir: string;
  runId?: string;
  resume: boolean;
};

/** A row ready to start: how much of the batch's budget it holds while it runs. */
type Admission =
  | { start: true; allotment: number | undefined; partial: boolean }
  | { start: false; wait: boolean; message?: string };

/**
 * Runs the rows not yet succeeded, `parallel` at once, each admitted by the batch's budget.
 * Returns true when the batch was stopped (nothing new started after the stop).
 */
async function schedule(run: Drive, rows: PlannedRow[], resumed: boolean): Promise<boolean> {
  const { options, states } = run;
  const parallel = Math.max(1, options.parallel ?? run.kept.parallel ?? 2);
  const max = run.kept.maxCredits;
  const todo: RowToRun[] = [];
  const host = options.rowHost;
  for (const row of rows) {
    const state = states.get(row.id) as BatchRowState;
    if (state.status === "succeeded") continue;
    const placed = host?.place(
      { batchId: run.summary.batchId, batchDir: run.batchDir },
      row.id,
    ) ?? { runDir: join(run.batchDir, "rows", row.id) };
    const runDir = resolve(placed.runDir);
    const hasJournal = existsSync(join(runDir, "journal.jsonl"));
    // A host takes on a run the journal says was started (its own store knows it best).
    const resume = host ? state.runId !== undefined || hasJournal : hasJournal;
    let spentBefore = 0;
    let estimate = row.estimate;
    if (hasJournal) {
      const onDisk = inspectRun(runDir);
      spentBefore = ledgerOf(onDisk.records).total.credits;
      estimate = await rowEstimate(run.pipeline, row.inputs, {
        catalogs: options.catalogs,
        stepKinds: options.stepKinds,
        previous: onDisk.state,
        rowsCache: options.rowsCache,
      });
      state.credits = spentBefore;
    }
    todo.push({
      ...row,
      estimate,
      spentBefore,
      runDir,
      resume,
      ...(placed.runId ? { runId: placed.runId } : {}),
    });
  }
  const spentOf = () => [...states.values()].reduce((sum, state) => sum + state.credits, 0);
  options.onEvent?.({
    type: "batch.start",
    batchId: run.summary.batchId,
    batchDir: run.batchDir,
    name: run.summary.name,
    resumed,
    rows: rows.length,
    finished: rows.length - todo.length,
    estimate: sumEstimates(todo),
    spent: spentOf(),
    ...(max === undefined ? {} : { maxCredits: max }),
  });
  await saveSummary(run, "running");
  const reserved = new Map<string, number>();
  const running = new Map<string, Promise<void>>();
  const stopped = () => options.stopSignal?.aborted === true || options.signal?.aborted === true;
  const admit = (row: (typeof todo)[number]): Admission => {
    if (max === undefined) return { start: true, allotment: undefined, partial: false };
    const held = [...reserved.values()].reduce((sum, value) => sum + value, 0);
    const left = Math.max(0, max - spentOf() - held);
    const need = row.estimate.credits;
    if (need <= left) {
      // Its certain part plus the most its uncertain steps can cost; all that is left only
      // when a paid step has no bound (then the rows after it wait for it).
      const most = rowUpperBound(row.estimate) ?? left;
      return { start: true, allotment: Math.min(most, left), partial: false };
    }
    // Rows running may give back what they hold: wait for them before deciding.
    if (running.size > 0) return { start: false, wait: true };
    if (run.kept.allowPartial && left > 0) return { start: true, allotment: left, partial: true };
    return {
      start: false,
      wait: false,
      message: `its certain cost, ${need} credits, is more than the ${left} left of the batch's budget of ${max}`,
    };
  };
  const queue = [...todo];
  while (queue.length > 0 || running.size > 0) {
    while (!stopped() && running.size < parallel && queue.length > 0) {
      const row = queue[0] as (typeof todo)[number];
      const admission = admit(row);
      if (!admission.start && admission.wait) break;
      queue.shift();
      if (!admission.start) {
        const message = admission.message ?? "the batch's budget is spent";
        run.journal.append({
          type: "row.skipped",
          at: now(),
          id: row.id,
          line: row.line,
          reason: "budget",
          error: message,
        });
        const state = states.get(row.id) as BatchRowState;
        state.status = "budget_reached";
        state.error = message;
        options.onEvent?.({
          type: "batch.row.skipped",
          row: row.id,
          line: row.line,
          reason: "budget",
          message,
        });
        await saveSummary(run, "running");
        continue;
      }
      if (admission.allotment !== undefined) reserved.set(row.id, admission.allotment);
      const work = runRow(run, row, admission).finally(() => {
        reserved.delete(row.id);
        running.delete(row.id);
      });
      running.set(row.id, work);
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
    if (stopped()) queue.length = 0;
  }
  return stopped();
}

/** Runs (or resumes) one row's run in its directory, its run directory journaled first. */
async function runRow(
  run: Drive,
  row: RowToRun,
  admission: Extract<Admission, { start: true }>,
): Promise<void> {
  const { options, states } = run;
  const state = states.get(row.id) as BatchRowState;
  const rel = relative(run.batchDir, row.runDir);
  run.journal.append({
    type: "row.start",
    at: now(),
    id: row.id,
    line: row.line,
    runDir: rel,
    ...(row.runId ? { runId: row.runId } : {}),
  });
  state.status = "running";
  state.runDir = rel;
  if (row.runId) state.runId = row.runId;
  await saveSummary(run, "running");
  options.onEvent?.({
    type: "batch.row.start",
    row: row.id,
    line: row.line,
    runDir: row.runDir,
    resumed: row.resume,
  });
  const own = (run.pipeline.spec as { max_credits?: number }).max_credits;
  const budget =
    admission.allotment === undefined
      ? undefined
      : Math.min(own ?? Number.POSITIVE_INFINITY, row.spentBefore + admission.allotment);
  const started = Date.now();
  let result: BatchRowOutcome | undefined;
  let error: string | undefined;
  const onEvent = (event: RunEvent) => options.onEvent?.({ ...event, row: row.id } as BatchEvent);
  try {
    result = options.rowHost
      ? await options.rowHost.run({
          pipelinePath: run.pipeline.path,
          inputs: row.fields,
          ...(row.runId ? { runId: row.runId } : {}),
          runDir: row.runDir,
          resume: row.resume,
          ...(budget === undefined ? {} : { maxCredits: budget }),
          ...(admission.partial || run.kept.allowPartial ? { allowPartial: true } : {}),
          onEvent,
        })
      : // The pipeline the batch loaded and hashed: a row runs it as the batch checked it,
        // without reading or validating the file again (and a file edited mid-batch is
        // refused at the next resume, not run by half the rows).
        await runPipeline(run.pipeline, {
          ...run.runOptions,
          ...(row.resume ? { resume: row.runDir } : { inputs: row.fields, runDir: row.runDir }),
          ...(budget === undefined ? {} : { maxCredits: budget }),
          ...(admission.partial ? { allowPartial: true } : {}),
          ...(options.builtInService ? { builtInService: true } : {}),
          onEvent,
        });
  } catch (thrown) {
    error = (thrown as Error).message;
  }
  const status: BatchRowStatus = result ? rowStatus(result.status) : "failed";
  const credits = result?.totals.credits ?? row.spentBefore;
  const video = result && status === "succeeded" ? finalVideo(result) : undefined;
  // Kept relative to the batch directory (events carry the absolute path).
  const final = video ? relative(run.batchDir, video) : undefined;
  const message = error ?? (result?.error ? String(result.error.message) : undefined);
  const durationMs = result?.durationMs ?? Date.now() - started;
  run.journal.append({
    type: "row.end",
    at: now(),
    id: row.id,
    status,
    credits,
    durationMs,
    ...(final ? { final } : {}),
    ...(message ? { error: message } : {}),
  });
  Object.assign(state, { status, credits, durationMs });
  if (final) state.final = final;
  if (message) state.error = message;
  else delete state.error;
  options.onEvent?.({
    type: "batch.row.end",
    row: row.id,
    line: row.line,
    status,
    credits,
    durationMs,
    runDir: row.runDir,
    ...(video ? { final: video } : {}),
    ...(message ? { error: message } : {}),
  });
  await saveSummary(run, "running");
}

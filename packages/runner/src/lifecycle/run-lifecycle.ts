import type { EstimateCache } from "../cache/request-cache-key.js";
import type { DistributiveOmit, ResumeReason, RunEvent } from "../events/run-event.js";
import type { CreditBudget } from "../executor/budget.js";
import { budgetAdmission, settleTotal, uncachedSteps } from "../executor/budget-admission.js";
import { behindGates } from "../executor/estimate-behind-gates.js";
import { type ExecuteResult, executePipeline } from "../executor/execute-pipeline.js";
import { replayJournal } from "../executor/replay-journal.js";
import { runStartSteps, settleRun } from "../executor/run-outcome.js";
import type { JournalWriter } from "../journal/journal.js";
import type { JournalRecord } from "../journal/journal-record.js";
import type { RunState } from "../journal/journal-state.js";
import { createLedger, type LiveLedger, ledgerOf } from "../ledger/ledger.js";
import { buildGraph } from "../plan/build-graph.js";
import type { RunEstimate } from "../plan/plan-types.js";
import { creditCatalogs } from "../plan/price-units.js";
import type { RunResult } from "../run-options.js";
import { focusedEstimate, plannedEstimate, refuseOverBudget } from "./run-estimate-check.js";
import type { RunHost, RunToPlay } from "./run-host.js";
import { wholeRunEstimate } from "./whole-run-estimate.js";

/** A run under way: what every phase of its lifecycle shares. */
interface Played {
  run: RunToPlay;
  host: RunHost;
  previous: RunState | undefined;
  ledger: LiveLedger | undefined;
  journal: JournalWriter;
  estimate: RunEstimate | undefined;
  emit(event: DistributiveOmit<RunEvent, "seq" | "time">): void;
}

/**
 * A run's lifecycle, the same on every host: the journal replayed, the estimate and its
 * refusal, `run.start` (or `run.resume`) journaled and said, the budget and the fan-outs'
 * admission, the DAG, the gates (`run.waiting`), the totals from the ledger, and `run.end`
 * journaled with the host's run record and said. Throws only when the run cannot start.
 * @example const result = await runLifecycle(run, localHost); // or the DBOS workflow's host
 */
export async function runLifecycle(run: RunToPlay, host: RunHost): Promise<RunResult> {
  const started = Date.now();
  const records = await host.journal.read();
  // Replayed once: by whoever read the records (a resume), else here.
  let previous =
    records.length > 0 ? (host.journal.replayed?.() ?? replayJournal(records)) : undefined;
  const resumed = previous?.start !== undefined;
  // Read before this session's records: how the last one ended.
  const resumedAfter = resumed
    ? resumeReason(previous?.ended?.status, host.begin !== undefined)
    : undefined;
  // The journal's ledger, counted once: the estimate's spending by step, the budget's spent
  // before, and (a whole journal) the live ledger the run goes on adding to.
  const counted = createLedger(records);
  const estimate = await estimateOf(run, host, previous, counted);
  await host.saveRunRecord({
    phase: "start",
    runId: run.runId,
    name: run.name,
    inputs: run.inputs,
    startedAt: run.startedAt,
    ...(resumed ? { resumedAt: new Date(started).toISOString() } : { record: startRecord(run) }),
  });
  const ledger = host.journal.whole ? counted : undefined;
  // The records appended before the DAG runs, folded on into `previous` after a session's own.
  let begun: JournalRecord[] | undefined = host.begin ? [] : undefined;
  let appended = 0;
  const journal: JournalWriter = {
    ordered: host.journal.ordered === true,
    append(record: JournalRecord) {
      ledger?.add(record);
      begun?.push(record);
      appended += 1;
      return host.journal.append(record);
    },
  };
  if (resumed)
    await journal.append({ type: "run.resume", runId: run.runId, options: run.journaled });
  if (host.begin) {
    // The session's own records (a new take, a pick) come first; the run goes on from them.
    previous ??= replayJournal([]);
    await host.begin(journal, previous);
    previous = replayJournal(begun ?? [], previous);
    begun = undefined;
  }
  // How many of the journal's records `previous` holds (the rest are appended from now on).
  const replayed = records.length + (host.begin ? appended : 0);
  const emit: Played["emit"] = (event) => host.bus.emit(event);
  const played: Played = { run, host, previous, ledger, journal, estimate, emit };
  emit({
    type: "run.start",
    runId: run.runId,
    runDir: host.runDir,
    name: run.name,
    resumed,
    ...(resumedAfter ? { resumedAfter } : {}),
    steps: runStartSteps(run.pipeline.spec, run.kinds),
  });
  if (estimate) emit({ type: "run.estimate", estimate, ...maxOf(run), ...takeOf(run) });
  // A whole journal's ledger counts this session's first records too (a take's).
  const spentBefore = counted.total().credits;
  const budget = await host.createBudget({
    maxCredits: run.budgetMax,
    spentBefore,
    onReached: (credits, maxCredits) => emit({ type: "budget.reached", credits, maxCredits }),
  });
  const { result, runEstimate } = await execute(played, budget);
  await host.afterExecute?.(result, played.previous, journal, replayed);
  return end(played, result, runEstimate, started);
}

/**
 * Why a resumed run goes on, from how its last session ended: a take (a session about one
 * unit), a decided gate (it stopped `waiting`), a failure, its budget, else an interruption
 * (killed: no end journaled, or cancelled).
 * @example resumeReason("waiting", false) // "gate"
 */
export function resumeReason(lastStatus: unknown, take: boolean): ResumeReason {
  if (take) return "take";
  if (lastStatus === "waiting") return "gate";
  if (lastStatus === "failed") return "failed";
  if (lastStatus === "budget_reached") return "budget";
  return "interruption";
}

/** The run's estimate (none for a sub-run), refused over the run's budget. */
async function estimateOf(
  run: RunToPlay,
  host: RunHost,
  previous: RunState | undefined,
  counted: LiveLedger,
): Promise<RunEstimate | undefined> {
  const given = {
    pipeline: run.pipeline,
    inputs: run.inputs,
    catalogs: run.catalogs,
    stepKinds: run.stepKinds,
    previous,
    ...runCache(host),
  };
  const estimate = run.focus
    ? focusedEstimate(given, run.focus, run.focus.paid)
    : run.estimate
      ? await plannedEstimate(given)
      : undefined;
  if (!estimate) return undefined;
  // A resumed run's estimate is of the whole run: what it spent, and what is left as known now.
  const whole =
    previous?.start !== undefined && !run.focus
      ? await wholeRunEstimate(estimate, {
          pipeline: run.pipeline,
          previous,
          ledger: { steps: counted.steps() },
          inputs: run.inputs,
          run: { id: run.runId, dir: host.runDir, name: run.name },
          kinds: run.kinds,
          catalogs: run.catalogs,
          ...runCache(host),
        })
      : estimate;
  refuseOverBudget(whole, run.budgetMax, { allowPartial: run.allowPartial });
  return whole;
}

/** Plays the DAG; a fan-out the budget cannot pay for whole stops before its first unit. */
async function execute(
  played: Played,
  budget: CreditBudget,
): Promise<{ result: ExecuteResult; runEstimate: RunEstimate | undefined }> {
  const { run, host, estimate } = played;
  let runEstimate = estimate;
  const admit = estimate
    ? budgetAdmission({
        estimate,
        budget,
        enforce: !run.allowPartial,
        onEstimate: (refined) => {
          runEstimate = refined;
          played.emit({ type: "run.estimate", estimate: refined, ...maxOf(run), ...takeOf(run) });
        },
        uncached: uncachedSteps(run.pipeline.spec),
        // Prices in credits (a stated rate applied), as the estimate's.
        ...(run.catalogs ? { catalogs: creditCatalogs(run.catalogs, "keep") } : {}),
        // A take makes a new result whatever the cache holds: it is priced as paid.
        ...(run.focus ? {} : runCache(host)),
      })
    : undefined;
  const result = await executePipeline({
    spec: run.pipeline.spec,
    graph: buildGraph(run.pipeline),
    kinds: run.kinds,
    inputs: run.inputs,
    run: { id: run.runId, dir: host.runDir, name: run.name },
    client: host.client,
    bus: host.bus,
    journal: played.journal,
    ...(played.ledger ? { ledger: played.ledger } : {}),
    ...(run.locate ? { locate: run.locate } : {}),
    ...(played.previous ? { previous: played.previous } : {}),
    ...(run.focus ? { focus: { step: run.focus.step, index: run.focus.index } } : {}),
    ...(admit ? { admit } : {}),
    ...(host.units ? { units: host.units } : {}),
    signal: host.signal,
    ...(host.stop ? { stop: host.stop } : {}),
    concurrency: host.limits.concurrency,
    slots: host.limits.slots,
    budget,
    cache: host.cache.enabled,
    cacheDir: host.cache.dir,
    ...(host.cache.index ? { cacheIndex: host.cache.index } : {}),
    service: host.cache.service,
    extras: host.extras(budget, played.previous),
  });
  return { result, runEstimate };
}

/** Settles the run: gates, totals from the ledger, `run.end` with the host's record. */
async function end(
  played: Played,
  result: ExecuteResult,
  estimated: RunEstimate | undefined,
  started: number,
): Promise<RunResult> {
  const { run, host } = played;
  let runEstimate = estimated;
  const headline = await host.settledError?.();
  const ending = settleRun(run.pipeline.spec, result, headline ? { error: headline } : {});
  if (ending.status === "waiting") {
    await host.onWaiting?.(result);
    // Which gates, and what approving them starts (fan-outs counted from the outputs so far).
    const waiting = await behindGates(run.pipeline, result, {
      inputs: run.inputs,
      ...(run.catalogs ? { catalogs: run.catalogs } : {}),
      ...(run.stepKinds ? { stepKinds: run.stepKinds } : {}),
      ...runCache(host),
    });
    played.emit({ type: "run.waiting", ...waiting });
    if (runEstimate) {
      // The run's estimate as known at its gate: what it made, and what approving starts.
      runEstimate = structuredClone(runEstimate);
      for (const [id, step] of Object.entries(waiting.next.steps)) runEstimate.steps[id] = step;
      settleTotal(runEstimate);
      played.emit({ type: "run.estimate", estimate: runEstimate, ...maxOf(run) });
    }
  }
  // The run's figures as its ledger says: every unit's entries, wherever they were journaled.
  const totals = played.ledger
    ? result.totals
    : { ...ledgerOf(await host.journal.read()).total, cachedSteps: result.totals.cachedSteps };
  if (runEstimate) totals.estimatedCredits = runEstimate.credits;
  const durationMs = Date.now() - started;
  const stored = await host.saveRunRecord({
    phase: "end",
    status: ending.status,
    outputs: ending.outputs,
    totals,
    ...(ending.error ? { error: ending.error } : {}),
    endedAt: new Date().toISOString(),
    record: { type: "run.end", status: ending.status },
  });
  await host.journal.close?.();
  const status = stored ?? ending.status;
  // A cancel that came first ends the run cancelled, without an error.
  const error = status === "cancelled" ? undefined : ending.error;
  const { outputs } = ending;
  played.emit({
    type: "run.end",
    status,
    totals,
    outputs,
    ...(error ? { error } : {}),
    durationMs,
  });
  return {
    status,
    runId: run.runId,
    runDir: host.runDir,
    outputs,
    totals,
    steps: result.steps,
    ...(error ? { error } : {}),
    durationMs,
  };
}

/** A new run's `run.start` record: what its later sessions keep. */
function startRecord(run: RunToPlay): JournalRecord {
  return {
    type: "run.start",
    runId: run.runId,
    name: run.name,
    pipelineHash: run.pipeline.hash,
    pipelinePath: run.pipeline.path,
    inputs: run.inputs,
    ...(run.maxCredits === undefined ? {} : { maxCredits: run.maxCredits }),
    options: run.journaled,
    time: run.startedAt,
  };
}

/**
 * The cache the run's units may be served from, for pricing them (none when it uses none),
 * keyed as they key it: a model the run's client routes to another account by its service.
 */
function runCache(host: RunHost): { cache?: EstimateCache & { pipelineDir: string } } {
  if (!host.cache.enabled) return {};
  return {
    cache: {
      location: host.cache.index
        ? { dir: host.cache.dir, index: host.cache.index }
        : host.cache.dir,
      service: host.cache.service,
      routing: host.client,
      pipelineDir: host.pipelineDir,
    },
  };
}

/** Marks a take's estimate (of its one unit), so readers keep the whole run's apart. */
function takeOf(run: RunToPlay): { of?: "take" } {
  return run.focus?.paid ? { of: "take" } : {};
}

/** `maxCredits` for the estimate's event, when the run has a budget. */
function maxOf(run: RunToPlay): { maxCredits?: number } {
  return run.budgetMax === undefined ? {} : { maxCredits: run.budgetMax };
}

import type { CacheIndex } from "../cache/cache-index.js";
import { storeInCache } from "../cache/step-cache.js";
import { serializeError } from "../errors/serialize-error.js";
import { StepTimeoutError } from "../errors/step-timeout-error.js";
import { StepWaitingError } from "../errors/step-waiting-error.js";
import type { EventBus } from "../events/event-bus.js";
import type { RunTotals } from "../events/run-event.js";
import type { JournalWriter } from "../journal/journal.js";
import type { ItemState } from "../journal/journal-state.js";
import { createStepJournal } from "../journal/step-journal.js";
import { createUnitLedger } from "../ledger/unit-ledger.js";
import type { StepKind, StepRunContext } from "../steps/step-kind.js";
import { type Artifact, hashedArtifacts, outputFiles } from "./artifacts.js";
import type { ExecutionExtras } from "./execution-context.js";
import { resolveOutputPath } from "./resolve-output-path.js";
import { isRetryableStepError, type RetrySpec, retryDelay, sleep } from "./retry-policy.js";
import { unitCacheKey, unitFromCache } from "./unit-from-cache.js";

/** Kinds whose results the cache keeps (they cost tokens or credits; ffmpeg is local). */

/** Everything one unit of work (a step, or one item of a fan-out) needs. */
export interface UnitWork {
  stepId: string;
  kind: StepKind;
  /** Body of the step with defaults merged and expressions evaluated. */
  spec: Record<string, unknown>;
  index?: number;
  retry?: RetrySpec;
  timeoutMs?: number;
  cache: boolean;
  previous?: ItemState;
  /**
   * The take this unit makes, from the second (a retake): the cache never serves it (a
   * retake is a new result even for the same request; it is stored as usual), its kind sees
   * it (`context.take`, part of a job's idempotency key) and its ledger records carry it.
   */
  take?: number;
}

/** Shared services of a run that units use. */
export interface UnitServices {
  runDir: string;
  signal: AbortSignal;
  /** Nothing new starts once it aborts (no attempt, no paid request); default `signal`. */
  stop?: AbortSignal;
  client: StepRunContext["client"];
  bus: EventBus;
  journal: JournalWriter;
  /** Runs work once a slot of the unit's queue is free. */
  slot: StepRunContext["slot"];
  /** The place of a request of the unit to another model (`StepRunContext.slotOf`). */
  slotOf?: StepRunContext["slotOf"];
  defaults: Record<string, Record<string, unknown>>;
  /** The cache directory: its blobs, and its entries unless `cacheIndex` is given. */
  cacheDir: string;
  /** Where cache entries live (default: the file index in `cacheDir`). */
  cacheIndex?: CacheIndex;
  /**
   * Which service makes the results, for the cache key (default: the client's normalised base
   * URL; `BUILT_IN_SERVICE` for a simulator started just for the run).
   */
  service?: string;
  extras: ExecutionExtras;
}

/** How a unit ended. */
export interface UnitResult {
  outputs: Record<string, unknown>;
  /** Files the outputs name, with their sha256 (journaled; resume checks them). */
  artifacts?: Record<string, Artifact>;
  totals: RunTotals;
  cached: boolean;
}

/**
 * Runs one unit: served from the cache when an identical request was seen, else the kind's
 * `run` with retries (back-off) and a timeout composed with the run's signal. Journals
 * `item.start` before and `item.end`/`item.fail` after. Throws the unit's last error.
 */
export async function runUnit(work: UnitWork, services: UnitServices): Promise<UnitResult> {
  const { stepId, index } = work;
  const at = index === undefined ? {} : { index };
  // Item records matter for fan-out items; a plain step is covered by step.start/end/fail.
  const record = (entry: Record<string, unknown> & { type: string }): Promise<void> =>
    index === undefined
      ? Promise.resolve()
      : // Not `{ ...entry, step }`: that makes a hidden class per record (see journal.ts).
        services.journal.append(Object.assign({}, entry, { step: stepId }, at));
  const kindName = work.kind.kind;
  services.bus.emit({ type: "step.request", step: stepId, ...at, kind: kindName, spec: work.spec });
  // A unit its step or kind does not cache has no key: nothing is looked up or stored.
  const keyed = work.cache && work.kind.cache ? await unitCacheKey(work, services) : undefined;
  const key = keyed?.key;
  // A retake asks for a new result: the cache is not read for it (its result is stored).
  const retake = work.take !== undefined && work.take > 1;
  if (keyed && key && !retake) {
    const { cache, policy } = keyed;
    const served = await unitFromCache(work, services, { key, cache, policy, record });
    if (served) return served;
  }
  // Written in order now; made durable by the next sync (losing it only means a re-run).
  if (index !== undefined) record({ type: "item.start" }).catch(() => undefined);
  const attempts = Math.max(1, work.retry?.attempts ?? 1);
  const stepJournal = createStepJournal(services.journal, stepId, index, work.previous);
  // Every attempt's spending counts: the kind's own entries (jobs, charges), and what the
  // sub-pipelines its tools ran spent (each has its own ledger in its run directory).
  const ledger = createUnitLedger(
    services.journal,
    stepId,
    index,
    work.take,
    work.previous?.ledger,
  );
  const runSubPipeline = unitSubPipelines(services.extras, ledger);
  const progress = unitProgress(work, services.bus);
  for (let attempt = 1; ; attempt++) {
    (services.stop ?? services.signal).throwIfAborted();
    const timeoutSignal = work.timeoutMs ? AbortSignal.timeout(work.timeoutMs) : undefined;
    const signal = timeoutSignal
      ? AbortSignal.any([services.signal, timeoutSignal])
      : services.signal;
    const context: StepRunContext & ExecutionExtras = {
      stepId,
      ...at,
      ...(retake ? { take: work.take } : {}),
      runDir: services.runDir,
      signal,
      stopSignal: services.stop ?? services.signal,
      client: services.client,
      emit: (event) => services.bus.emit(event),
      progress,
      resolveOutputPath: (path) => resolveOutputPath(services.runDir, path),
      journal: stepJournal,
      slot: services.slot,
      ...(services.slotOf ? { slotOf: services.slotOf } : {}),
      ledger,
      defaults: services.defaults[kindName] ?? {},
      ...services.extras,
      runSubPipeline,
    };
    try {
      const outputs = await runWithSignal(work.kind.run(work.spec, context), signal);
      // A kind that kept no ledger of its own (in this attempt or an earlier one of the unit)
      // is accounted from its outputs (tokens, credits). Written now, in order: the unit's end
      // (or its step's), awaited next, makes it durable.
      if (ledger.ownEntries() === 0) {
        const entry = ledger.record({ totals: work.kind.totals(outputs), key: "outputs" });
        // A journal of concurrent inserts gives no such order: the entry is awaited there.
        if (services.journal.ordered) entry.catch(() => undefined);
        else await entry;
      }
      const totals = ledger.totals();
      // Outputs that name no file (a chat's) are not waited for: the unit ends in this turn.
      const files = outputFiles(outputs, services.runDir);
      const artifacts = files.length > 0 ? await hashedArtifacts(files, services.runDir) : {};
      if (index !== undefined) await record({ type: "item.end", outputs, totals, artifacts });
      if (keyed && key) {
        await storeInCache(keyed.cache, {
          key,
          kind: kindName,
          step: stepId,
          outputs,
          runDir: services.runDir,
          summary: work.kind.summary(work.spec),
          worth: { credits: totals.credits, made: totals.made },
        }).catch(() => undefined);
      }
      return { outputs, totals, cached: false, artifacts };
    } catch (caught) {
      let error = caught;
      if (timeoutSignal?.aborted && !services.signal.aborted) {
        error = new StepTimeoutError(stepId, index, work.timeoutMs ?? 0);
      }
      const cancelled = (services.stop ?? services.signal).aborted;
      if (!cancelled && attempt < attempts && isRetryableStepError(error)) {
        const delayMs = retryDelay(work.retry ?? { attempts }, attempt);
        services.bus.emit({
          type: "step.retry",
          step: stepId,
          ...(index === undefined ? {} : { item: index }),
          attempt: attempt + 1,
          delayMs,
          error: serializeError(error),
        });
        await sleep(delayMs, services.stop ?? services.signal);
        continue;
      }
      // A cancelled unit is left "started" in the journal so that resume picks it up again,
      // and so is one that waits for a decision (the step's `step.wait` records it).
      if (!cancelled && !StepWaitingError.isInstance(error)) {
        await record({ type: "item.fail", error: serializeError(error) });
      }
      throw error;
    }
  }
}

/**
 * The units under way on each signal, rejected together when it aborts: one listener per
 * signal (a run's), not one added and removed per unit.
 */
const underWay = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

/** Settles with the work, or rejects as soon as the signal aborts (a kind that ignores it). */
function runWithSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  let units = underWay.get(signal);
  if (!units) {
    const rejects = new Set<(reason: unknown) => void>();
    signal.addEventListener(
      "abort",
      () => {
        for (const reject of rejects) reject(signal.reason);
        rejects.clear();
      },
      { once: true },
    );
    underWay.set(signal, rejects);
    units = rejects;
  }
  const waiting = units;
  return new Promise<T>((resolve, reject) => {
    waiting.add(reject);
    work.then(
      (value) => {
        waiting.delete(reject);
        resolve(value);
      },
      (error) => {
        waiting.delete(reject);
        reject(error);
      },
    );
  });
}

/**
 * How a unit's kind runs sub-pipelines (its tools'): what they spend is counted in the
 * unit's ledger.
 */
function unitSubPipelines(
  given: ExecutionExtras,
  ledger: ReturnType<typeof createUnitLedger>,
): ExecutionExtras["runSubPipeline"] {
  return (file, inputs, options) =>
    given.runSubPipeline(file, inputs, {
      ...options,
      onTotals: (totals) => {
        const { cachedSteps: _steps, estimatedCredits: _estimate, ...spent } = totals;
        void ledger.record({ totals: spent, via: "sub-pipeline" }).catch(() => undefined);
        options.onTotals?.(totals);
      },
    });
}

/**
 * How a unit tells its progress: a `unit.progress` event naming its step, item and kind, for a
 * phase its kind declares with that stage (a kind that reports another fails loudly).
 */
function unitProgress(work: UnitWork, bus: EventBus): StepRunContext["progress"] {
  const kind = work.kind.kind;
  const at = work.index === undefined ? {} : { index: work.index };
  return (phase, progress) => {
    const declared = work.kind.phases?.[phase];
    if (declared !== progress.stage)
      throw new Error(
        `the ${kind} kind reported phase "${phase}" as ${progress.stage}; it declares ${declared ? `it as ${declared}` : "no such phase"} (its \`phases\`)`,
      );
    bus.emit({ type: "unit.progress", step: work.stepId, ...at, kind, phase, ...progress });
  };
}

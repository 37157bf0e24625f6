import { ReelsmithError } from "@reelsmith/core/errors";
import type { CacheIndex } from "../cache/cache-index.js";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { serializeError } from "../errors/serialize-error.js";
import { StepError } from "../errors/step-error.js";
import { StepWaitingError } from "../errors/step-waiting-error.js";
import type { EventBus } from "../events/event-bus.js";
import { addTotals, emptyTotals, type RunTotals } from "../events/run-event.js";
import type { ExpressionContext } from "../expressions/index.js";
import { evaluateValue } from "../expressions/index.js";
import type { JournalWriter } from "../journal/journal.js";
import type { RunState } from "../journal/journal-state.js";
import type { LiveLedger } from "../ledger/ledger.js";
import { kindOf } from "../steps/registry.js";
import type { StepKind, StepRunContext } from "../steps/step-kind.js";
import type { CreditBudget } from "./budget.js";
import type { ExecutableSpec, ExecutableStep, StepGraph } from "./executable-pipeline.js";
import type { ExecutionExtras } from "./execution-context.js";
import { type FanOutServices, runFanOut } from "./fan-out.js";
import { downstreamOf, keptStep } from "./focus.js";
import { isAbortError } from "./is-abort-error.js";
import { parseDuration } from "./parse-duration.js";
import type { QueueSlots } from "./queue-slots.js";
import { reusableStep } from "./resume-reuse.js";
import { SlotPool } from "./slot-pool.js";
import { type GateVerdict, gateStep } from "./step-gate.js";
import type { StepSummary } from "./step-summary.js";
import { localUnits, type UnitExecutor } from "./unit-executor.js";
import { statusName, unitBody, unitContext, unitRequest } from "./unit-request.js";

export type { StepSummary } from "./step-summary.js";

/** Inputs of the executor (runPipeline prepares them). */
export interface ExecuteOptions {
  spec: ExecutableSpec;
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
  locate?: (step: string) => string | undefined;
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
    /** The requests of those whose request is known now (a sequential step's read the one before). */
    specs: Record<string, unknown>[];
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

/**
 * An error kept as it is when a step fails with it, not wrapped in a StepError: a StepError
 * already, this session's budget refusal, or an error whose category gives the run its own
 * status (a rejected gate, also when read back from the journal).
 */
function keptAsItIs(error: unknown): boolean {
  return (
    StepError.isInstance(error) ||
    BudgetExceededError.isInstance(error) ||
    (ReelsmithError.isInstance(error) && error.category === "rejected")
  );
}

/** The step kind named by the step's single kind key. */
export function kindOfStep(step: ExecutableStep, kinds: ReadonlyMap<string, StepKind>): StepKind {
  const kind = kindOf(step as Record<string, unknown>, kinds);
  if (kind) return kind;
  throw new StepError(
    step.id,
    undefined,
    new Error(`no known step kind (one of ${[...kinds.keys()].join(", ")})`),
    "unknown_kind",
  );
}

/**
 * Executes a pipeline's DAG: each step starts when the steps it depends on have settled,
 * then passes its gate (GitHub's rules for `needs` and `if:`), is reused from the journal
 * when resuming, or runs its units (one, or one per `for_each` item) within the run's global
 * slots. Every journal record is durable before what it records is acted on: a step's start
 * before its units run, its end before its dependents start.
 * @example const result = await executePipeline({ spec, graph, kinds, ... });
 */
export async function executePipeline(options: ExecuteOptions): Promise<ExecuteResult> {
  const { spec, bus, journal, signal } = options;
  const stop = options.stop ?? signal;
  const globalSlots = new SlotPool(options.concurrency);
  const services: FanOutServices = {
    unit: {
      runDir: options.run.dir,
      signal,
      ...(options.stop ? { stop: options.stop } : {}),
      client: options.client,
      bus,
      journal,
      defaults: spec.defaults ?? {},
      cacheDir: options.cacheDir,
      ...(options.cacheIndex ? { cacheIndex: options.cacheIndex } : {}),
      ...(options.service === undefined ? {} : { service: options.service }),
      extras: options.extras,
    },
    slots: options.slots,
    units: options.units ?? localUnits,
    cache: options.cache,
    ...(options.focus ? { focus: options.focus } : {}),
  };
  const summaries: Record<string, StepSummary> = {};
  const context: ExpressionContext = {
    inputs: options.inputs,
    env: { ...(spec.env ?? {}) },
    steps: {},
    run: options.run,
  };
  const totals = emptyTotals();
  let runError: unknown;
  let failed = false;

  const finish = (id: string, summary: StepSummary) => {
    // The ledger's figures for the step (every session of a resumed run), when there is one.
    if (options.ledger)
      summary.totals = { ...options.ledger.step(id), cachedSteps: summary.totals.cachedSteps };
    summaries[id] = summary;
    // Clips and outputs probed by this step (or by the run that is resumed): never probed again.
    options.extras.knownProbes?.addFromOutputs(summary.outputs);
    context.steps[id] = { outputs: summary.outputs, status: statusName(summary.status) };
    addTotals(totals, summary.totals);
  };

  const failStep = async (
    step: ExecutableStep,
    kind: string,
    started: number,
    cause: unknown,
    outputs: unknown = {},
    stepTotals = emptyTotals(),
    index?: number,
  ) => {
    const error = keptAsItIs(cause)
      ? cause
      : new StepError(step.id, index, cause, "step_failed", options.locate?.(step.id));
    const serialized = serializeError(error);
    const continued = step.continue_on_error === true;
    await journal.append({ type: "step.fail", step: step.id, error: serialized, continued });
    finish(step.id, {
      status: "failed",
      kind,
      outputs,
      durationMs: Date.now() - started,
      totals: stepTotals,
      cached: false,
      error: serialized,
      continued,
    });
    bus.emit({
      type: "step.fail",
      step: step.id,
      error: serialized,
      continued,
      ...(summaries[step.id] ? { totals: summaries[step.id]?.totals } : {}),
    });
    if (!continued) {
      failed = true;
      runError ??= error;
    }
  };

  // A focused session runs its unit's step and what depends on it; the rest is kept.
  const focused = options.focus ? downstreamOf(options.focus.step, options.graph) : undefined;

  const runStep = async (step: ExecutableStep, dependencies: readonly string[]): Promise<void> => {
    const kind = kindOfStep(step, options.kinds);
    const started = Date.now();
    const base = { kind: kind.kind, durationMs: 0, totals: emptyTotals(), cached: false };
    if (stop.aborted) return finish(step.id, { ...base, status: "cancelled", outputs: {} });
    const previous = options.previous?.steps.get(step.id);
    if (focused && !focused.has(step.id)) {
      const kept = keptStep(step, previous);
      finish(step.id, { ...base, ...kept.summary });
      if (kept.error && step.continue_on_error !== true) {
        failed = true;
        runError ??= kept.error;
      }
      bus.emit(kept.event);
      return;
    }
    if (await reusableStep(previous, dependencies, summaries, options.run.dir)) {
      finish(step.id, { ...base, status: "succeeded", outputs: previous?.outputs, reused: true });
      bus.emit({
        type: "step.end",
        step: step.id,
        outputs: previous?.outputs,
        durationMs: 0,
        cached: false,
        reused: true,
        ...(summaries[step.id] ? { totals: summaries[step.id]?.totals } : {}),
      });
      return;
    }
    // Behind a gate that waits: it does not start now (a resume runs it once decided).
    const behind = dependencies.find((d) => summaries[d]?.status === "waiting");
    if (behind !== undefined) {
      const gate = summaries[behind]?.waiting?.on ?? behind;
      const reason = `waits for "${gate}"`;
      finish(step.id, { ...base, status: "waiting", outputs: {}, waiting: { reason, on: gate } });
      bus.emit({ type: "step.wait", step: step.id, reason, on: gate });
      return;
    }
    let verdict: GateVerdict;
    try {
      verdict = gateStep(step, { dependencies, summaries, context, failed });
    } catch (error) {
      return failStep(step, kind.kind, started, error);
    }
    if (!verdict.run) {
      await journal.append({ type: "step.skip", step: step.id, reason: verdict.reason });
      finish(step.id, { ...base, status: "skipped", outputs: {} });
      bus.emit({ type: "step.skip", step: step.id, reason: verdict.reason });
      return;
    }
    await journal.append({ type: "step.start", step: step.id });
    bus.emit({ type: "step.start", step: step.id });
    const fanOut = step.for_each !== undefined;
    let items: unknown[] = [undefined];
    let body: Record<string, unknown>;
    let timeoutMs: number | undefined;
    try {
      timeoutMs = parseDuration(step.timeout);
      body = unitBody(step, kind.kind, spec.defaults);
      if (fanOut) {
        const list = evaluateValue(step.for_each, context);
        if (!Array.isArray(list))
          throw new TypeError(
            `for_each must give an array, got ${list === null ? "null" : typeof list}`,
          );
        items = list;
      }
    } catch (error) {
      return failStep(step, kind.kind, started, error);
    }
    if (options.admit && fanOut) {
      // The units still to make (a resumed run's made ones are reused), as they will be asked.
      const specs: Record<string, unknown>[] = [];
      let units = 0;
      for (const [position, item] of items.entries()) {
        if (previous?.items.get(position)?.status === "succeeded") continue;
        units += 1;
        try {
          specs.push(unitRequest(body, unitContext(context, { item, index: position })));
        } catch {
          // Its unit reports it.
        }
      }
      try {
        await options.admit({ id: step.id, kind, units, specs });
      } catch (error) {
        return failStep(step, kind.kind, started, error);
      }
    }
    const {
      results,
      errors,
      totals: stepTotals,
    } = await runFanOut({
      step,
      kind,
      items,
      fanOut,
      body,
      timeoutMs,
      context,
      previous,
      globalSlots,
      services,
    });
    const outputs = fanOut ? results.map((r) => r?.outputs ?? null) : (results[0]?.outputs ?? {});
    const cached = results.length > 0 && results.every((r) => r?.cached);
    stepTotals.cachedSteps = cached ? 1 : 0;
    const first = errors[0];
    if (stop.aborted && (!first || isAbortError(first.error))) {
      return finish(step.id, {
        status: "cancelled",
        kind: kind.kind,
        outputs,
        durationMs: Date.now() - started,
        totals: stepTotals,
        cached: false,
      });
    }
    if (first && StepWaitingError.isInstance(first.error)) {
      // A gate without a decision: journaled, so that a decision can name it and a resume
      // runs it again; what depends on it waits too.
      const { reason, details } = first.error;
      await journal.append({ type: "step.wait", step: step.id, reason, details });
      finish(step.id, {
        status: "waiting",
        kind: kind.kind,
        outputs: {},
        durationMs: Date.now() - started,
        totals: stepTotals,
        cached: false,
        waiting: { reason, details },
      });
      bus.emit({ type: "step.wait", step: step.id, reason, details });
      return;
    }
    if (first)
      return failStep(step, kind.kind, started, first.error, outputs, stepTotals, first.index);
    const artifacts = fanOut ? undefined : results[0]?.artifacts;
    await journal.append({
      type: "step.end",
      step: step.id,
      outputs,
      ...(artifacts ? { artifacts } : {}),
    });
    finish(step.id, {
      status: "succeeded",
      kind: kind.kind,
      outputs,
      durationMs: Date.now() - started,
      totals: stepTotals,
      cached,
    });
    bus.emit({
      type: "step.end",
      step: step.id,
      outputs,
      durationMs: Date.now() - started,
      cached,
      totals: summaries[step.id]?.totals ?? stepTotals,
    });
  };

  // The DAG loop: one gate per step, created before any step starts (so the order in which
  // steps start never matters); each step waits for the gates of what it depends on.
  const settled = new Map<string, Promise<void>>();
  const open = new Map<string, () => void>();
  for (const step of spec.steps) {
    settled.set(step.id, new Promise<void>((resolve) => open.set(step.id, resolve)));
  }
  const byId = new Map(spec.steps.map((step) => [step.id, step]));
  const order = [...options.graph.order, ...spec.steps.map((step) => step.id)].filter(
    (id, i, all) => all.indexOf(id) === i,
  );
  await Promise.all(
    order.map(async (id) => {
      const step = byId.get(id);
      if (!step) return;
      const dependencies = [...(options.graph.dependencies.get(id) ?? [])];
      await Promise.all(dependencies.map((d) => settled.get(d)));
      await runStep(step, dependencies).catch((error) =>
        failStep(step, "unknown", Date.now(), error),
      );
      open.get(id)?.();
    }),
  );
  if (options.budget.refused && options.budget.maxCredits !== undefined) {
    // The budget stopped submissions: that is the run's headline error.
    runError = new BudgetExceededError(options.budget.spent, options.budget.maxCredits);
  }
  const ledgerTotals = options.ledger
    ? { ...options.ledger.snapshot().total, cachedSteps: totals.cachedSteps }
    : totals;
  return {
    steps: summaries,
    totals: ledgerTotals,
    error: runError,
    // Stopped with work left undone (a stop after the last step finished changes nothing).
    cancelled:
      stop.aborted && Object.values(summaries).some((summary) => summary.status === "cancelled"),
    waiting: spec.steps
      .map((step) => step.id)
      .filter((id) => summaries[id]?.status === "waiting" && !summaries[id]?.waiting?.on),
    context,
  };
}

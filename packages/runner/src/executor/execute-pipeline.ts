import pLimit from "p-limit";
import type { CacheIndex } from "../cache/cache-index.js";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { serializeError } from "../errors/serialize-error.js";
import { StepError } from "../errors/step-error.js";
import type { EventBus } from "../events/event-bus.js";
import {
  addTotals,
  emptyTotals,
  type RunTotals,
  type SerializedError,
} from "../events/run-event.js";
import type { ExpressionContext } from "../expressions/index.js";
import {
  conditionUsesStatusFunction,
  evaluateCondition,
  evaluateValue,
} from "../expressions/index.js";
import type { JournalWriter } from "../journal/journal.js";
import { type RunState, SINGLE_ITEM, type StepState } from "../journal/journal-state.js";
import { kindOf } from "../steps/registry.js";
import type { StepKind, StepRunContext } from "../steps/step-kind.js";
import { artifactsIntact } from "./artifacts.js";
import type { CreditBudget } from "./budget.js";
import type { ExecutableSpec, ExecutableStep, StepGraph } from "./executable-pipeline.js";
import type { ExecutionExtras } from "./execution-context.js";
import { parseDuration } from "./parse-duration.js";
import type { UnitResult } from "./run-unit.js";
import { type LimitRunner, type SlotHolder, SlotPool, videoLimitFor } from "./slot-pool.js";
import { localUnits, type UnitExecutor } from "./unit-executor.js";

/** How one step ended. */
export interface StepSummary {
  status: "succeeded" | "failed" | "skipped" | "cancelled";
  kind: string;
  outputs: unknown;
  durationMs: number;
  totals: RunTotals;
  cached: boolean;
  /** True when resume reused the step's journaled result. */
  reused?: boolean;
  error?: SerializedError;
  /** For a failed step with continue_on_error. */
  continued?: boolean;
}

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
  signal: AbortSignal;
  concurrency: number;
  videoLimit: LimitRunner;
  budget: CreditBudget;
  cache: boolean;
  cacheDir: string;
  /** Where cache entries live (default: the file index in `cacheDir`). */
  cacheIndex?: CacheIndex;
  /** Which service makes the results, for cache keys (default: the client's base URL). */
  service?: string;
  extras: ExecutionExtras;
}

/** What the executor returns. */
export interface ExecuteResult {
  steps: Record<string, StepSummary>;
  totals: RunTotals;
  /** The first failure that was not continued (the run's error), if any. */
  error?: unknown;
  cancelled: boolean;
  context: ExpressionContext;
}

const STATUS_NAME = {
  succeeded: "success",
  failed: "failure",
  skipped: "skipped",
  cancelled: "cancelled",
};

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
 * Executes a pipeline's DAG: each step starts when the steps it depends on have settled;
 * units of work (steps and fan-out items) share a global concurrency limit.
 * @example const result = await executePipeline({ spec, graph, kinds, ... });
 */
export async function executePipeline(options: ExecuteOptions): Promise<ExecuteResult> {
  const { spec, bus, journal, signal } = options;
  const globalSlots = new SlotPool(options.concurrency);
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
  const settled = new Map<string, Promise<void>>();
  const byId = new Map(spec.steps.map((s) => [s.id, s]));
  // Steps something waits for: their end must be on disk before the dependents act.
  const awaited = new Set([...options.graph.dependencies.values()].flatMap((d) => [...d]));

  const finish = (id: string, summary: StepSummary) => {
    summaries[id] = summary;
    // Clips and outputs probed by this step (or by the run that is resumed): never probed again.
    options.extras.knownProbes?.addFromOutputs(summary.outputs);
    context.steps[id] = { outputs: summary.outputs, status: STATUS_NAME[summary.status] };
    addTotals(totals, summary.totals);
  };

  const runStep = async (step: ExecutableStep): Promise<void> => {
    const dependencies = [...(options.graph.dependencies.get(step.id) ?? [])];
    await Promise.all(dependencies.map((d) => settled.get(d)));
    const kind = kindOfStep(step, options.kinds);
    const started = Date.now();
    const base = { kind: kind.kind, durationMs: 0, totals: emptyTotals(), cached: false };
    if (signal.aborted) {
      finish(step.id, { ...base, status: "cancelled", outputs: {} });
      return;
    }
    const previous = options.previous?.steps.get(step.id);
    // A journaled success is reused only when what it wrote is still there with the same
    // bytes and everything it was made from was reused too; else the step runs again (its
    // intact items and downloaded-but-deleted clips are reused or fetched, not paid again).
    if (
      previous?.status === "succeeded" &&
      dependencies.every((d) => summaries[d]?.reused || summaries[d]?.status === "skipped") &&
      (await stepIntact(previous, options.run.dir))
    ) {
      finish(step.id, { ...base, status: "succeeded", outputs: previous.outputs, reused: true });
      bus.emit({
        type: "step.end",
        step: step.id,
        outputs: previous.outputs,
        durationMs: 0,
        cached: false,
        reused: true,
      });
      return;
    }
    // GitHub semantics: a step waits on success of what it needs unless it asks otherwise.
    const usesStatus = step.if !== undefined && conditionUsesStatusFunction(step.if);
    const blocker = dependencies.find(
      (d) =>
        ["skipped", "cancelled"].includes(summaries[d]?.status ?? "") ||
        (summaries[d]?.status === "failed" && !summaries[d]?.continued),
    );
    let skipReason: string | undefined;
    try {
      const conditionContext = {
        ...context,
        status: failed ? ("failure" as const) : ("success" as const),
      };
      if (blocker && !usesStatus)
        skipReason = `needs "${blocker}", which was ${summaries[blocker]?.status}`;
      else if (step.if !== undefined && !evaluateCondition(step.if, conditionContext))
        skipReason = `if: ${step.if} was false`;
      else if (step.if === undefined && failed) skipReason = "an earlier step failed";
    } catch (error) {
      return failStep(step, kind.kind, started, error);
    }
    if (skipReason) {
      await journal.append({ type: "step.skip", step: step.id, reason: skipReason });
      finish(step.id, { ...base, status: "skipped", outputs: {} });
      bus.emit({ type: "step.skip", step: step.id, reason: skipReason });
      return;
    }
    // Written in order now; made durable by the next sync (losing it only means a re-run).
    journal.append({ type: "step.start", step: step.id }).catch(() => undefined);
    bus.emit({ type: "step.start", step: step.id });
    const fanOut = step.for_each !== undefined;
    let items: unknown[] = [undefined];
    let body: Record<string, unknown>;
    let timeoutMs: number | undefined;
    try {
      timeoutMs = parseDuration(step.timeout);
      body = {
        ...(spec.defaults?.[kind.kind] ?? {}),
        ...(step[kind.kind] as Record<string, unknown>),
      };
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
    const itemLimit = fanOut && step.max_parallel ? pLimit(step.max_parallel) : undefined;
    const stepTotals = emptyTotals();
    const results: (UnitResult | undefined)[] = new Array(items.length).fill(undefined);
    const errors: { index: number | undefined; error: unknown }[] = [];
    const runItem = async (item: unknown, position: number, slot: SlotHolder) => {
      const index = fanOut ? position : undefined;
      const prior = previous?.items.get(index ?? SINGLE_ITEM);
      if (fanOut)
        bus.emit({ type: "item.start", step: step.id, index: position, total: items.length });
      if (
        prior?.status === "succeeded" &&
        prior.outputs &&
        (await artifactsIntact(prior, options.run.dir))
      ) {
        results[position] = { outputs: prior.outputs, totals: emptyTotals(), cached: false };
        if (fanOut)
          bus.emit({
            type: "item.end",
            step: step.id,
            index: position,
            total: items.length,
            status: "reused",
          });
        return;
      }
      try {
        signal.throwIfAborted();
        const itemContext = fanOut ? { ...context, item, index: position } : context;
        const evaluated = evaluateValue(body, itemContext) as Record<string, unknown>;
        const result = await (options.units ?? localUnits).run(
          {
            stepId: step.id,
            kind,
            spec: evaluated,
            ...(index === undefined ? {} : { index }),
            ...(step.retry ? { retry: step.retry } : {}),
            ...(timeoutMs ? { timeoutMs } : {}),
            cache: options.cache && step.cache !== false,
            ...(prior ? { previous: prior } : {}),
          },
          {
            runDir: options.run.dir,
            signal,
            client: options.client,
            bus,
            journal,
            videoLimit: videoLimitFor(slot, options.videoLimit),
            defaults: spec.defaults ?? {},
            cacheDir: options.cacheDir,
            ...(options.cacheIndex ? { cacheIndex: options.cacheIndex } : {}),
            ...(options.service === undefined ? {} : { service: options.service }),
            extras: options.extras,
          },
        );
        results[position] = result;
        addTotals(stepTotals, result.totals);
        if (fanOut)
          bus.emit({
            type: "item.end",
            step: step.id,
            index: position,
            total: items.length,
            status: result.cached ? "cached" : "succeeded",
          });
      } catch (error) {
        errors.push({ index, error });
        if (fanOut)
          bus.emit({
            type: "item.end",
            step: step.id,
            index: position,
            total: items.length,
            status: "failed",
            error: serializeError(error),
          });
      }
    };
    await Promise.all(
      items.map((item, position) => {
        const unit = async () => {
          const slot = globalSlots.holder();
          await slot.acquire();
          try {
            await runItem(item, position, slot);
          } finally {
            slot.release();
          }
        };
        return itemLimit ? itemLimit(unit) : unit();
      }),
    );
    const outputs = fanOut ? results.map((r) => r?.outputs ?? null) : (results[0]?.outputs ?? {});
    const cached = results.length > 0 && results.every((r) => r?.cached);
    if (cached) stepTotals.cachedSteps = 1;
    else stepTotals.cachedSteps = 0;
    if (errors.length > 0 || signal.aborted) {
      errors.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      const first = errors[0];
      if (signal.aborted && (!first || isAbort(first.error))) {
        finish(step.id, {
          status: "cancelled",
          kind: kind.kind,
          outputs,
          durationMs: Date.now() - started,
          totals: stepTotals,
          cached: false,
        });
        return;
      }
      return failStep(step, kind.kind, started, first?.error, outputs, stepTotals, first?.index);
    }
    const artifacts = fanOut ? undefined : results[0]?.artifacts;
    const durable = journal.append({
      type: "step.end",
      step: step.id,
      outputs,
      ...(artifacts ? { artifacts } : {}),
    });
    // A step nothing depends on is made durable by the shared syncs and at the latest by
    // the journal's close before the run returns.
    if (awaited.has(step.id)) await durable;
    else durable.catch(() => undefined);
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
      totals: stepTotals,
    });
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
    const error =
      cause instanceof StepError || (cause as Error)?.name === "BudgetExceededError"
        ? cause
        : new StepError(step.id, index, cause);
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
    bus.emit({ type: "step.fail", step: step.id, error: serialized, continued });
    if (!continued) {
      failed = true;
      runError ??= error;
    }
  };

  // One gate per step, created before any step starts, so the order of starting never matters.
  const gates = new Map<string, () => void>();
  for (const step of spec.steps) {
    settled.set(step.id, new Promise<void>((resolve) => gates.set(step.id, resolve)));
  }
  const order = [...options.graph.order, ...spec.steps.map((s) => s.id)].filter(
    (id, i, all) => all.indexOf(id) === i,
  );
  await Promise.all(
    order.map(async (id) => {
      const step = byId.get(id);
      if (!step) return;
      await runStep(step).catch((error) => failStep(step, "unknown", Date.now(), error));
      gates.get(id)?.();
    }),
  );
  if (options.budget.refused && options.budget.maxCredits !== undefined) {
    // The budget stopped submissions: that is the run's headline error.
    runError = new BudgetExceededError(options.budget.spent, options.budget.maxCredits);
  }
  return { steps: summaries, totals, error: runError, cancelled: signal.aborted, context };
}

/** Every file a journaled step (or each of its items) wrote is still there, unchanged. */
async function stepIntact(step: StepState, runDir: string): Promise<boolean> {
  if (step.items.size === 0 || (step.items.size === 1 && step.items.has(SINGLE_ITEM))) {
    return artifactsIntact(step, runDir);
  }
  for (const item of step.items.values()) {
    if (item.status === "succeeded" && !(await artifactsIntact(item, runDir))) return false;
  }
  return true;
}

function isAbort(error: unknown): boolean {
  const name = (error as Error | undefined)?.name ?? "";
  return name === "AbortError" || name === "APIUserAbortError";
}

import { ReelsmithError } from "@reelsmith/core/errors";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { serializeError } from "../errors/serialize-error.js";
import { StepError } from "../errors/step-error.js";
import { addTotals, emptyTotals, type RunTotals } from "../events/run-event.js";
import type { ExpressionContext } from "../expressions/index.js";
import type { StepSpec } from "../pipeline/pipeline-spec.js";
import { kindOf } from "../steps/registry.js";
import type { ExecuteOptions } from "./execute-options.js";
import type { FanOutServices } from "./fan-out.js";
import { downstreamOf } from "./focus.js";
import { SlotPool } from "./slot-pool.js";
import type { StepSummary } from "./step-summary.js";
import { localUnits } from "./unit-executor.js";
import { statusName, unitBody, unitRequest } from "./unit-request.js";

/** A pipeline's execution under way: what its steps share, and what they settled so far. */
export interface Execution {
  options: ExecuteOptions;
  /** Nothing new starts once it aborts (the run's stop, else its signal). */
  stop: AbortSignal;
  globalSlots: SlotPool;
  services: FanOutServices;
  summaries: Record<string, StepSummary>;
  context: ExpressionContext;
  totals: RunTotals;
  /** The first failure that was not continued. */
  runError: unknown;
  /** A step failed without `continue_on_error`. */
  failed: boolean;
  /** A focused session's step and what depends on it (undefined: every step may run). */
  focused: ReadonlySet<string> | undefined;
}

/**
 * An execution's start: the run's global slots, the services its units are given, the
 * expression context, empty totals, and what a focused session may run.
 * @example const run = createExecution(options);
 */
export function createExecution(options: ExecuteOptions): Execution {
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
      extras: {
        ...options.extras,
        requestOf: (id, assumed) => requestOf(run, id, assumed),
        // What a step makes ahead for a later one lives as long as this run.
        madeAhead: new Map(),
      },
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
  // A focused session runs its unit's step and what depends on it; the rest is kept.
  const focused = options.focus ? downstreamOf(options.focus.step, options.graph) : undefined;

  const run: Execution = {
    options,
    stop,
    globalSlots,
    services,
    summaries,
    context,
    totals,
    runError: undefined,
    failed: false,
    focused,
  };
  return run;
}

/**
 * What the plain step `id` will ask for, evaluated now with `assumed` as one step's outputs
 * (`RunServices.requestOf`): undefined for a fan-out or gated step, one that waits for a
 * step not yet succeeded (other than the assumed one), or one whose request fails to evaluate.
 */
function requestOf(
  run: Execution,
  id: string,
  assumed: { step: string; outputs: Record<string, unknown> },
): Record<string, unknown> | undefined {
  const { options, context, summaries } = run;
  const step = options.spec.steps.find((candidate) => candidate.id === id);
  if (!step || step.for_each !== undefined || step.if !== undefined) return undefined;
  const waitsFor = options.graph.dependencies.get(id) ?? new Set<string>();
  for (const dependency of waitsFor) {
    if (dependency !== assumed.step && summaries[dependency]?.status !== "succeeded")
      return undefined;
  }
  const kind = kindOf(step as Record<string, unknown>, options.kinds);
  if (!kind) return undefined;
  try {
    const steps = {
      ...context.steps,
      [assumed.step]: { outputs: assumed.outputs, status: statusName("succeeded") },
    };
    return unitRequest(unitBody(step, kind.kind, options.spec.defaults), { ...context, steps });
  } catch {
    return undefined;
  }
}

/**
 * Settles a step: its summary (its figures from the ledger when there is one), its outputs in
 * the expression context, what it probed known to the run, its totals added.
 * @example finishStep(run, "clips", { status: "succeeded", kind: "video", outputs, … });
 */
export function finishStep(run: Execution, id: string, summary: StepSummary): void {
  const { options, summaries, context, totals } = run;
  // The ledger's figures for the step (every session of a resumed run), when there is one.
  if (options.ledger)
    summary.totals = { ...options.ledger.step(id), cachedSteps: summary.totals.cachedSteps };
  summaries[id] = summary;
  // Clips and outputs probed by this step (or by the run that is resumed): never probed again.
  options.extras.knownProbes?.addFromOutputs(summary.outputs);
  context.steps[id] = { outputs: summary.outputs, status: statusName(summary.status) };
  addTotals(totals, summary.totals);
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

/**
 * Fails a step: `step.fail` journaled and said, its summary settled, and unless it continues
 * on error, the run marked failed with its first error (wrapped in a StepError, with where
 * the step is written, unless kept as it is).
 * @example await failStep(run, step, "video", started, error);
 */
export async function failStep(
  run: Execution,
  step: StepSpec,
  kind: string,
  started: number,
  cause: unknown,
  outputs: unknown = {},
  stepTotals = emptyTotals(),
  index?: number,
): Promise<void> {
  const { options, summaries } = run;
  const { journal, bus } = options;
  const finish = (id: string, summary: StepSummary) => finishStep(run, id, summary);
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
    run.failed = true;
    run.runError ??= error;
  }
}

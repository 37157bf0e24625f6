import { StepError } from "../errors/step-error.js";
import { StepWaitingError } from "../errors/step-waiting-error.js";
import { emptyTotals } from "../events/run-event.js";
import { evaluateValue } from "../expressions/index.js";
import type { StepState } from "../journal/journal-state.js";
import type { StepSpec } from "../pipeline/pipeline-spec.js";
import { kindOf } from "../steps/registry.js";
import type { StepKind } from "../steps/step-kind.js";
import { type Execution, failStep as failExecutionStep, finishStep } from "./execution-state.js";
import { type FanOutResult, runFanOut } from "./fan-out.js";
import { keptStep } from "./focus.js";
import { isAbortError } from "./is-abort-error.js";
import { parseDuration } from "./parse-duration.js";
import { reusableStep } from "./resume-reuse.js";
import type { SlotHolder } from "./slot-pool.js";
import { type GateVerdict, gateStep } from "./step-gate.js";
import type { StepSummary } from "./step-summary.js";
import { unitBody, unitContext, unitRequest } from "./unit-request.js";

/** The step kind named by the step's single kind key. */
export function kindOfStep(step: StepSpec, kinds: ReadonlyMap<string, StepKind>): StepKind {
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
 * Runs one step once the steps it depends on have settled: cancelled once the run stops,
 * kept as its journal says outside a focused session's reach, reused from the journal when
 * resuming, waiting behind a gate that waits, skipped by its gate (`needs`, `if:`), else its
 * units run (one, or one per `for_each` item, admitted by the budget first) and it ends.
 * @example await runStep(run, step, ["storyboard"]);
 */
export async function runStep(
  run: Execution,
  step: StepSpec,
  dependencies: readonly string[],
): Promise<void> {
  const { options, stop, summaries, context, focused, globalSlots } = run;
  const { bus, journal } = options;
  const finish = (id: string, summary: StepSummary) => finishStep(run, id, summary);
  const failStep = (...rest: FailArguments) => failExecutionStep(run, ...rest);
  const kind = kindOfStep(step, options.kinds);
  const started = Date.now();
  const base = { kind: kind.kind, durationMs: 0, totals: emptyTotals(), cached: false };
  if (stop.aborted) return finish(step.id, { ...base, status: "cancelled", outputs: {} });
  const previous = options.previous?.steps.get(step.id);
  if (focused && !focused.has(step.id)) {
    const kept = keptStep(step, previous);
    finish(step.id, { ...base, ...kept.summary });
    if (kept.error && step.continue_on_error !== true) {
      run.failed = true;
      run.runError ??= kept.error;
    }
    bus.emit(kept.event);
    return;
  }
  if (previous && (await reusableStep(previous, dependencies, summaries, options.run.dir))) {
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
    verdict = gateStep(step, { dependencies, summaries, context, failed: run.failed });
  } catch (error) {
    return failStep(step, kind.kind, started, error);
  }
  if (!verdict.run) {
    await journal.append({ type: "step.skip", step: step.id, reason: verdict.reason });
    finish(step.id, { ...base, status: "skipped", outputs: {} });
    bus.emit({ type: "step.skip", step: step.id, reason: verdict.reason });
    return;
  }
  const fanOut = step.for_each !== undefined;
  // A plain step starts once its one unit has a global slot: its start is journaled and said
  // when it can run, not while it queues behind every other step (their records and events
  // all before the first request, their state all held at once).
  const held = fanOut ? undefined : globalSlots.holder();
  try {
    if (held) {
      await held.acquire();
      if (stop.aborted) return finish(step.id, { ...base, status: "cancelled", outputs: {} });
    }
    return await startStep(run, { step, kind, dependencies, previous, started, fanOut, held });
  } finally {
    held?.release();
  }
}

/**
 * A step past its gate: `step.start` journaled and said, its units run (a plain step's in the
 * global slot it holds), then its end.
 */
async function startStep(
  run: Execution,
  at: {
    step: StepSpec;
    kind: StepKind;
    dependencies: readonly string[];
    previous: StepState | undefined;
    started: number;
    fanOut: boolean;
    held: SlotHolder | undefined;
  },
): Promise<void> {
  const { options, context, globalSlots, services } = run;
  const { spec, bus, journal } = options;
  const { step, kind, previous, started, fanOut, held } = at;
  const failStep = (...rest: FailArguments) => failExecutionStep(run, ...rest);
  // Losing `step.start` only re-runs the step: an ordered journal makes it durable with the
  // first record the step awaits (its ledger, its facts, its end); others are awaited.
  const starting = journal.append({ type: "step.start", step: step.id });
  if (journal.ordered) starting.catch(() => undefined);
  else await starting;
  bus.emit({ type: "step.start", step: step.id });
  let items: unknown[] = [undefined];
  let body: Record<string, unknown>;
  let timeoutMs: number | undefined;
  try {
    timeoutMs = parseDuration(step.timeout);
    body = unitBody(step, kind.kind, spec.defaults);
    if (fanOut) {
      const list = evaluateValue(step.for_each, context);
      if (!Array.isArray(list))
        // Placed at the step's `for_each`, where the expression that gave it is written.
        throw new StepError(
          step.id,
          undefined,
          new TypeError(`for_each must give an array, got ${list === null ? "null" : typeof list}`),
          "step_failed",
          options.locate?.(step.id, "for_each"),
        );
      items = list;
    }
  } catch (error) {
    return failStep(step, kind.kind, started, error);
  }
  if (options.admit && fanOut) {
    try {
      await admitUnits(run, { step, kind, items, body, previous });
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
    ...(held ? { held } : {}),
    services,
  });
  // Its slot goes to the next unit: the end's wait for the disk holds none.
  held?.release();
  return endStep(run, { step, kind, started, fanOut }, { results, errors, totals: stepTotals });
}

/** What {@link failStep} takes after the execution. */
type FailArguments =
  Parameters<typeof failExecutionStep> extends [Execution, ...infer Rest] ? Rest : never;

/**
 * Asks the run's admission about a fan-out's units still to make (a resumed run's made ones
 * are reused), with their requests as they will be asked; throws to stop the step first.
 * @example await admitUnits(run, { step, kind, items, body, previous });
 */
async function admitUnits(
  run: Execution,
  unit: {
    step: StepSpec;
    kind: StepKind;
    items: readonly unknown[];
    body: Record<string, unknown>;
    previous: StepState | undefined;
  },
): Promise<void> {
  const { options, context } = run;
  const { step, kind, items, body, previous } = unit;
  const toMake = (position: number) => previous?.items.get(position)?.status !== "succeeded";
  let units = 0;
  for (let position = 0; position < items.length; position++) if (toMake(position)) units += 1;
  // The units still to make (a resumed run's made ones are reused), as they will be asked:
  // each made as the admission reads it, so that thousands are not all held at once.
  function* requests(): Generator<Record<string, unknown>> {
    for (const [position, item] of items.entries()) {
      if (!toMake(position)) continue;
      let spec: Record<string, unknown>;
      try {
        spec = unitRequest(body, unitContext(context, { item, index: position }));
      } catch {
        continue; // Its unit reports it.
      }
      yield spec;
    }
  }
  const specs = requests();
  await options.admit?.({ id: step.id, kind, units, specs });
}

/**
 * Ends a step from what its units gave: cancelled when the run stopped, waiting at a gate
 * without a decision, failed with its first error, else succeeded (`step.end` journaled
 * before its dependents start).
 * @example await endStep(run, { step, kind, started, fanOut }, fanOutResult);
 */
async function endStep(
  run: Execution,
  at: { step: StepSpec; kind: StepKind; started: number; fanOut: boolean },
  made: FanOutResult,
): Promise<void> {
  const { options, stop, summaries } = run;
  const { bus, journal } = options;
  const { step, kind, started, fanOut } = at;
  const { results, errors, totals: stepTotals } = made;
  const finish = (id: string, summary: StepSummary) => finishStep(run, id, summary);
  const failStep = (...rest: FailArguments) => failExecutionStep(run, ...rest);
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
}

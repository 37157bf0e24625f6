import { PipelineChangedError } from "../errors/pipeline-changed-error.js";
import { TakeError } from "../errors/take-error.js";
import { downstreamOf } from "../executor/focus.js";
import { inspectRun, type RunOnDisk } from "../executor/inspect-run.js";
import { loadForRun } from "../executor/load-for-run.js";
import type { LoadedRun } from "../executor/run-session.js";
import {
  type ItemState,
  type RunState,
  SINGLE_ITEM,
  type StepState,
} from "../journal/journal-state.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import type { StepSpec } from "../pipeline/pipeline-spec.js";
import { closest } from "../pipeline/schema-errors.js";
import { buildGraph } from "../plan/build-graph.js";
import type { RunOptions } from "../run-options.js";
import { kindOf, kindsByName } from "../steps/registry.js";
import type { AnyStepKind, StepKindSpec } from "../steps/step-kind.js";

/** Which unit of a run a retake or a pick is about: a step, and its item for a fan-out. */
export interface TakeTarget {
  step: string;
  /** The item (from 0) of a `for_each` step; left out for a step without one. */
  index?: number;
}

/** A unit of a run on disk, found and checked for a retake or a pick. */
export interface TakeUnit {
  runDir: string;
  onDisk: RunOnDisk;
  pipeline: LoadedPipeline;
  step: StepSpec;
  kind: AnyStepKind;
  index?: number;
  /** How many items the step has (1 for a step without `for_each`). */
  items: number;
}

/** "items 0–2", "item 0". */
function itemRange(count: number): string {
  return count === 1 ? "item 0" : `items 0–${count - 1}`;
}

/**
 * A unit's step and item in a replayed journal (undefined while the unit never ran).
 * @example const unit = unitAt(state, "clips", 1); unit?.item.takes?.picked
 */
export function unitAt(
  state: RunState,
  step: string,
  index: number | undefined,
): { stepState: StepState; item: ItemState; key: number } | undefined {
  const stepState = state.steps.get(step);
  const key = index ?? SINGLE_ITEM;
  if (!stepState) return undefined;
  // A plain step journals no item records: its unit is the step (the run's state is left as
  // it is: the run goes on from it).
  const item =
    stepState.items.get(key) ??
    (index === undefined && stepState.status !== "running"
      ? { status: "running" as const, facts: {} }
      : undefined);
  return item ? { stepState, item, key } : undefined;
}

/** How many items a fan-out step has, as its journal says. */
function itemCount(state: StepState | undefined): number {
  if (Array.isArray(state?.outputs)) return state.outputs.length;
  const indexes = [...(state?.items.keys() ?? [])].filter((index) => index >= 0);
  return indexes.length === 0 ? 0 : Math.max(...indexes) + 1;
}

/**
 * Finds the unit a retake or a pick is about, with the checks both make before anything is
 * written: the run exists and its pipeline did not change, the step is one of it, the item is
 * given for a fan-out (and only then), the item ran, a `sequential` step's item is its last
 * (each item starts from the one before), and no step after it holds jobs at the service (a
 * storyboard feeding clips). Throws TakeError or ResumeError saying which.
 * @example const unit = await findTakeUnit("runs/x", { step: "clips", index: 1 });
 */
export async function findTakeUnit(
  dir: string,
  target: TakeTarget,
  options: Pick<RunOptions, "catalogs" | "stepKinds"> & {
    /** Validate the pipeline again (default true; the run does before anything is sent). */
    validate?: boolean;
  } = {},
): Promise<TakeUnit> {
  const onDisk = inspectRun(dir);
  const pipeline = await loadForRun(onDisk.pipelinePath, {
    validate: options.validate !== false,
    ...(options.catalogs ? { catalogs: options.catalogs } : {}),
    ...(options.stepKinds
      ? { stepKinds: options.stepKinds as readonly StepKindSpec<never>[] }
      : {}),
  });
  if (pipeline.hash !== onDisk.start.pipelineHash) {
    throw new PipelineChangedError(onDisk.runDir, String(onDisk.start.pipelineHash), pipeline.hash);
  }
  return takeUnitOf({ onDisk, pipeline }, target, options);
}

/**
 * {@link findTakeUnit}'s checks on a run already loaded (a resume's, read once for its session).
 * @example const unit = takeUnitOf({ onDisk, pipeline }, { step: "clips", index: 1 });
 */
export function takeUnitOf(
  loaded: LoadedRun,
  target: TakeTarget,
  options: Pick<RunOptions, "stepKinds"> = {},
): TakeUnit {
  const { onDisk, pipeline } = loaded;
  const { runDir } = onDisk;
  const at = { step: target.step, ...(target.index === undefined ? {} : { index: target.index }) };
  const step = pipeline.spec.steps.find((entry) => entry.id === target.step);
  if (!step) {
    const ids = pipeline.spec.steps.map((entry) => `\`${entry.id}\``).join(", ");
    const meant = closest(
      target.step,
      pipeline.spec.steps.map((entry) => entry.id),
    );
    throw new TakeError(
      "unknown_step",
      runDir,
      `it has no step \`${target.step}\`${meant ? `; did you mean \`${meant}\`?` : ""} (its steps: ${ids})`,
      at,
    );
  }
  const kind = kindOf(step as Record<string, unknown>, kindsByName(options.stepKinds));
  if (!kind)
    throw new TakeError("unknown_step", runDir, `step \`${step.id}\` has no known kind`, at);
  const stepState = onDisk.state.steps.get(step.id);
  const fanOut = step.for_each !== undefined;
  const items = fanOut ? itemCount(stepState) : 1;
  if (fanOut && target.index === undefined) {
    throw new TakeError(
      "item_required",
      runDir,
      `\`${step.id}\` makes one item per \`for_each\` entry: say which with --item N (${items === 0 ? "it has none yet" : itemRange(items)})`,
      at,
    );
  }
  if (!fanOut && target.index !== undefined) {
    throw new TakeError(
      "not_a_fan_out",
      runDir,
      `\`${step.id}\` has no \`for_each\`, so it has no items: leave out --item`,
      at,
    );
  }
  if (target.index !== undefined && (!Number.isInteger(target.index) || target.index < 0)) {
    throw new TakeError(
      "unknown_item",
      runDir,
      `an item is a whole number from 0, got ${target.index}`,
      at,
    );
  }
  if (target.index !== undefined && target.index >= items) {
    throw new TakeError(
      "unknown_item",
      runDir,
      items === 0
        ? `\`${step.id}\` has made no items yet`
        : `\`${step.id}\` has ${itemRange(items)}; there is no item ${target.index}`,
      at,
    );
  }
  if (!unitAt(onDisk.state, step.id, target.index)) {
    throw new TakeError(
      "unit_not_run",
      runDir,
      `${target.index === undefined ? `\`${step.id}\`` : `item ${target.index} of \`${step.id}\``} has not run yet: \`reelsmith resume ${runDir}\` runs it`,
      at,
    );
  }
  if (step.sequential === true && target.index !== undefined && target.index < items - 1) {
    throw new TakeError(
      "sequential_item",
      runDir,
      `\`${step.id}\` is sequential: each item starts from the one before, so a new take of item ${target.index} would leave items ${target.index + 1}–${items - 1} made from the old one; only its last item (${items - 1}) can be retaken or picked`,
      at,
    );
  }
  // Steps after it that hold jobs at the service would be re-attached to the jobs they have,
  // made from the old take: a take of this unit could not make them again.
  const kinds = kindsByName(options.stepKinds);
  const graph = buildGraph(pipeline);
  const holding = [...downstreamOf(step.id, graph)].filter((id) => {
    const later = pipeline.spec.steps.find((entry) => entry.id === id);
    return id !== step.id && later && kindOf(later as Record<string, unknown>, kinds)?.heldJob;
  });
  if (holding.length > 0) {
    throw new TakeError(
      "downstream_jobs",
      runDir,
      `${holding.map((id) => `\`${id}\``).join(", ")} ${holding.length === 1 ? "is made" : "are made"} from \`${step.id}\` by jobs at the service, which a new take of it would not make again; retake ${holding.length === 1 ? "its" : "their"} items instead, or run the pipeline again`,
      at,
    );
  }
  return {
    runDir,
    onDisk,
    pipeline,
    step,
    kind,
    ...(target.index === undefined ? {} : { index: target.index }),
    items,
  };
}

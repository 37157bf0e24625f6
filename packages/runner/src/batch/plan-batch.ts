import { relative, resolve } from "node:path";
import type { CacheIndex } from "../cache/cache-index.js";
import { BUILT_IN_SERVICE, type ModelRouting, serviceIdentity } from "../cache/service-identity.js";
import { DEFAULT_CACHE_DIR } from "../cache/step-cache.js";
import type { RunState } from "../journal/journal-state.js";
import { type EstimateInputs, plannedEstimate } from "../lifecycle/run-estimate-check.js";
import { InputError } from "../pipeline/errors/input-error.js";
import type { LoadedPipeline } from "../pipeline/load-pipeline.js";
import { resolveInputs } from "../pipeline/resolve-inputs.js";
import type { RunEstimate } from "../plan/plan-types.js";
import type { AnyStepKind, ModelCatalogs, StepKindSpec } from "../steps/step-kind.js";
import type { BatchRowHost } from "./batch-row-host.js";
import { type BatchRowProblem, BatchRowsError } from "./batch-rows-error.js";
import { type BatchRow, readRows } from "./read-rows.js";

/** A row checked against the pipeline: its inputs as the run sees them and its estimate. */
export interface PlannedRow extends BatchRow {
  inputs: Record<string, unknown>;
  estimate: RunEstimate;
}

/** What a batch is expected to cost: each row's estimate and their sum. */
export interface BatchEstimate {
  /** The certain part, summed over the rows. */
  credits: number;
  /** True when every row's estimate is its whole cost. */
  complete: boolean;
  /** The most the rows can cost, when every row has a most. */
  creditsAtMost?: number;
  rows: { id: string; line: number; credits: number; complete: boolean; creditsAtMost?: number }[];
}

/** What {@link planRows} needs besides the pipeline and the file. */
export interface PlanRowsOptions {
  catalogs?: ModelCatalogs | undefined;
  /** The cache the rows' runs are served from: units it holds cost them nothing. */
  rowsCache?: EstimateInputs["cache"];
  stepKinds?: readonly (AnyStepKind | StepKindSpec<never>)[] | undefined;
  /** The file as problems name it (default: relative to the working directory). */
  shown?: string;
}

/**
 * The estimate of a row's run: its certain cost, checked against the models' limits (a
 * request made of the row's inputs that no model accepts is a problem of the row).
 */
export async function rowEstimate(
  pipeline: LoadedPipeline,
  inputs: Record<string, unknown>,
  options: Pick<PlanRowsOptions, "catalogs" | "stepKinds" | "rowsCache"> & {
    previous?: RunState | undefined;
  },
): Promise<RunEstimate> {
  return plannedEstimate({
    pipeline: pipeline as never,
    inputs,
    catalogs: options.catalogs,
    stepKinds: options.stepKinds,
    previous: options.previous,
    ...(options.rowsCache ? { cache: options.rowsCache } : {}),
  });
}

/**
 * The cache a batch's rows are served from, as a run finds it (`runPipeline`'s directory and
 * service identity), for their estimates: none when the rows use no cache; for rows that run
 * elsewhere, the index given, else the one their row host names (if it names one).
 * @example rowsCacheOf({ cacheDir: ".reelsmith/cache" }, client) // { location: "/…/.reelsmith/cache", service: "http://127.0.0.1:8080", routing: client }
 */
export function rowsCacheOf(
  options: {
    cache?: boolean | undefined;
    cacheDir?: string | undefined;
    cacheIndex?: CacheIndex | undefined;
    builtInService?: boolean | undefined;
    rowHost?: BatchRowHost | undefined;
    runsRoot?: string | undefined;
  },
  client: (ModelRouting & { baseURL?: string }) | undefined,
): EstimateInputs["cache"] {
  if (options.cache === false) return undefined;
  if (options.rowHost !== undefined && options.cacheIndex === undefined)
    return options.rowHost.rowsCache?.(resolve(options.runsRoot ?? "runs"));
  const dir = resolve(options.cacheDir ?? DEFAULT_CACHE_DIR);
  return {
    location: options.cacheIndex ? { dir, index: options.cacheIndex } : dir,
    service: options.builtInService ? BUILT_IN_SERVICE : serviceIdentity(client?.baseURL),
    routing: client,
  };
}

/**
 * Reads an inputs file and checks every row against the pipeline before anything is paid:
 * each row's fields are the pipeline's inputs (coerced to their declared types), its requests
 * fit the models' limits, and its certain cost fits the pipeline's own `max_credits`. Throws
 * {@link BatchRowsError} naming every bad row by `file:line` and field.
 * @example const { rows, estimate } = await planRows(pipeline, "stories.csv", { catalogs });
 */
export async function planRows(
  pipeline: LoadedPipeline,
  inputsFile: string,
  options: PlanRowsOptions = {},
): Promise<{ rows: PlannedRow[]; estimate: BatchEstimate }> {
  const shown = options.shown ?? (relative(process.cwd(), inputsFile) || inputsFile);
  const read = await readRows(inputsFile, shown);
  const problems: BatchRowProblem[] = [...read.problems];
  const rows: PlannedRow[] = [];
  const own = (pipeline.spec as { max_credits?: number }).max_credits;
  for (const row of read.rows) {
    let inputs: Record<string, unknown>;
    try {
      inputs = resolveInputs(pipeline, row.fields);
    } catch (error) {
      if (!InputError.isInstance(error)) throw error;
      for (const problem of error.problems)
        problems.push({
          file: shown,
          line: row.line,
          field: problem.input,
          message: problem.message,
        });
      continue;
    }
    let estimate: RunEstimate;
    try {
      estimate = await rowEstimate(pipeline, inputs, options);
    } catch (error) {
      problems.push({ file: shown, line: row.line, message: (error as Error).message });
      continue;
    }
    if (own !== undefined && estimate.credits > own) {
      problems.push({
        file: shown,
        line: row.line,
        message: `its certain cost, ${estimate.credits} credits, is over the pipeline's max_credits (${own})`,
      });
      continue;
    }
    rows.push({ ...row, inputs, estimate });
  }
  if (problems.length === 0 && rows.length === 0)
    problems.push({ file: shown, line: 1, message: "no rows: the file holds no inputs to run" });
  if (problems.length > 0) throw new BatchRowsError(problems.sort((a, b) => a.line - b.line));
  return { rows, estimate: sumEstimates(rows) };
}

/**
 * What a row holds of the batch's budget while it runs: its certain part plus the most its
 * uncertain steps can cost (each step's own upper bound: a ranged price's most, a fan-out's
 * largest size), or undefined when a paid step has no bound (its price or its size unknown).
 * @example rowUpperBound({ credits: 10, complete: false, steps: { chat: { credits: 2, perUnit: 2, units: 1 }, clips: { perUnit: 4, unitsAtLeast: 2, unitsAtMost: 5 } } }) // 22
 */
export function rowUpperBound(estimate: RunEstimate): number | undefined {
  if (estimate.complete) return estimate.credits;
  let most = 0;
  for (const step of Object.values(estimate.steps)) {
    const bound =
      step.creditsAtMost ??
      step.credits ??
      (step.perUnit !== undefined && step.unitsAtMost !== undefined
        ? step.perUnit * step.unitsAtMost
        : step.perUnit === 0
          ? 0
          : undefined);
    if (bound === undefined || !Number.isFinite(bound)) return estimate.creditsAtMost;
    most += bound;
  }
  return Math.max(most, estimate.credits, estimate.creditsAtMost ?? 0);
}

/**
 * The batch's estimate from its rows' (each a row still to run).
 * @example sumEstimates(rows).credits // 45
 */
export function sumEstimates(
  rows: readonly (BatchRow & { estimate: RunEstimate })[],
): BatchEstimate {
  let credits = 0;
  let complete = true;
  let atMost: number | undefined = 0;
  const perRow: BatchEstimate["rows"] = [];
  for (const row of rows) {
    const { estimate } = row;
    credits += estimate.credits;
    complete &&= estimate.complete;
    const most = estimate.complete ? estimate.credits : estimate.creditsAtMost;
    atMost = atMost === undefined || most === undefined ? undefined : atMost + most;
    perRow.push({
      id: row.id,
      line: row.line,
      credits: estimate.credits,
      complete: estimate.complete,
      ...(estimate.creditsAtMost === undefined ? {} : { creditsAtMost: estimate.creditsAtMost }),
    });
  }
  return {
    credits,
    complete,
    ...(complete || atMost === undefined ? {} : { creditsAtMost: atMost }),
    rows: perRow,
  };
}

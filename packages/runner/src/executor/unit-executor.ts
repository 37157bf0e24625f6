import { runUnit, type UnitResult, type UnitServices, type UnitWork } from "./run-unit.js";

/**
 * Where and when a unit of work (a step, or one item of a fan-out) runs. The executor owns
 * this; the step kinds never know which executor runs them.
 *
 * - The local executor (the default) runs the unit in this process: its durability is the
 *   run's file journal, its limits are the run's p-limits, its budget lives in memory.
 * - A distributed executor (`@reelsmith/distributed`) hands the unit to a durable queue whose
 *   worker, on any machine, calls the same `runUnit` with services backed by a database.
 *
 * Both pass the contract suite in `packages/runner/test/contract/`.
 */
export interface UnitExecutor {
  /** Runs the unit to its end (retries and the cache included) and gives back its result. */
  run(work: UnitWork, services: UnitServices): Promise<UnitResult>;
}

/**
 * The local executor's units: `runUnit` in this process.
 * @example await executePipeline({ ...options, units: localUnits });
 */
export const localUnits: UnitExecutor = { run: runUnit };

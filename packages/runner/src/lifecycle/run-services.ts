import type { CreditBudget } from "../executor/budget.js";
import { heldJobs } from "../executor/held-jobs.js";
import { stepReaders, writtenSpec } from "../executor/step-readers.js";
import type { RunState } from "../journal/journal-state.js";
import { KnownProbes } from "../media-probes/known-probes.js";
import type { PipelineSpec } from "../pipeline/pipeline-spec.js";
import { creditCatalogs } from "../plan/price-units.js";
import type { AnyStepKind, ModelCatalogs, OutputReader, RunServices } from "../steps/step-kind.js";
import { type SubRunHost, subRuns } from "./sub-runs.js";

/** Who reads a step's outputs ({@link stepReaders}). */
export type StepReadersOf = (stepId: string) => readonly OutputReader[];

/** The pipeline as written: its steps, outputs and maximum. */
export type WrittenSpec = Pick<PipelineSpec, "steps" | "outputs" | "max_credits">;

/**
 * What the services a run hands its steps are made from: what differs per host (the local
 * run, the DBOS run, one unit on a worker). Everything else is `createRunServices`'s.
 */
export interface RunServicesOf {
  runId: string;
  /** Directory of the pipeline file; relative input paths resolve against it. */
  pipelineDir: string;
  /** The budget the steps spend from (the run's, or its parent's for a sub-run). */
  budget: CreditBudget;
  /**
   * The pipeline as written, its text, or how to read it (a worker, which keeps the stored
   * run's parsed once): who reads each step's outputs (`readersOf`), worked out when a kind
   * first asks.
   */
  pipeline:
    | { spec: WrittenSpec }
    | { source: string }
    | {
        read: () => WrittenSpec;
        /**
         * Who reads each step's outputs, as the host keeps it (a worker works it out once per
         * run, not once per unit); else worked out here from `read()`.
         */
        readers?: (kinds: ReadonlyMap<string, AnyStepKind>) => StepReadersOf;
      };
  kinds: ReadonlyMap<string, AnyStepKind>;
  /** A resumed run's journal as replayed: the jobs it holds are claimed, never adopted again. */
  previous?: RunState | undefined;
  /**
   * The run's journal as it stands now, where other processes write it too (a worker's unit,
   * whose run's other units run elsewhere): the jobs it holds are claimed as well, read again
   * each time a submission is about to adopt a listed job.
   */
  journalNow?: (() => Promise<RunState>) | undefined;
  /** The model catalogs the run knows (its kinds see the prices in credits only). */
  catalogs?: ModelCatalogs | undefined;
  resubmitLostJobs?: boolean | undefined;
  autoApprove?: boolean | undefined;
  fence?: RunServices["fence"];
  /**
   * Where its sub-pipelines run (a method of the host's, `SubRunHost.runPipeline`); none:
   * not in this process (a DBOS run's units run theirs on their workers).
   */
  subRuns?: SubRunHost | undefined;
}

/**
 * The services a run hands its steps (`RunServices`), made the one way for every host: the
 * run's id and directory, its budget, probes of the files it made, who reads each step's
 * outputs, the jobs it holds, its catalogs in credits, its flags and fence, and its
 * sub-pipeline runs.
 * @example extras: (budget, previous) => createRunServices({ runId, pipelineDir, budget, pipeline: { spec }, kinds, previous, subRuns })
 */
export function createRunServices(of: RunServicesOf): RunServices {
  const { pipeline } = of;
  const specOf = once(() =>
    "spec" in pipeline
      ? pipeline.spec
      : "read" in pipeline
        ? pipeline.read()
        : writtenSpec(pipeline.source),
  );
  const readersOf = once(() =>
    "read" in pipeline && pipeline.readers
      ? pipeline.readers(of.kinds)
      : stepReaders(specOf(), of.kinds),
  );
  return {
    runId: of.runId,
    pipelineDir: of.pipelineDir,
    budget: of.budget,
    knownProbes: new KnownProbes(),
    readersOf: (stepId) => readersOf()(stepId),
    claimedJobs: claimedJobs(of, specOf),
    resubmitLostJobs: of.resubmitLostJobs === true,
    ...(of.autoApprove ? { autoApprove: true } : {}),
    // Prices in credits only: a price in another unit with no rate is never added to them.
    ...(of.catalogs ? { catalogs: creditCatalogs(of.catalogs, "drop") } : {}),
    ...(of.fence ? { fence: of.fence } : {}),
    runSubPipeline: of.subRuns
      ? subRuns(of.subRuns, {
          pipelineDir: of.pipelineDir,
          budget: of.budget,
          catalogs: of.catalogs,
          fence: of.fence,
          resubmitLostJobs: of.resubmitLostJobs,
          autoApprove: of.autoApprove,
        })
      : () => Promise.reject(new Error("sub-pipelines run inside their unit's worker")),
  };
}

/**
 * The jobs the run holds: a resumed run's, those submitted since, and (where the host reads
 * the run's journal as other processes write it) those journaled anywhere, read again on
 * `refresh`.
 */
function claimedJobs(
  of: Pick<RunServicesOf, "previous" | "journalNow" | "kinds">,
  specOf: () => WrittenSpec,
): NonNullable<RunServices["claimedJobs"]> {
  const held = (state: RunState) => heldJobs(state, specOf(), of.kinds).map((job) => job.id);
  const claimed = new Set(of.previous ? held(of.previous) : []);
  const { journalNow } = of;
  if (!journalNow) return claimed;
  return {
    has: (id) => claimed.has(id),
    add: (id) => claimed.add(id),
    async refresh() {
      for (const id of held(await journalNow())) claimed.add(id);
    },
  };
}

/** A value worked out on first use, then kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

import {
  type RunServicesOf,
  type StepReadersOf,
  stepReaders,
  writtenSpec,
} from "@reelsmith/runner/internal";
import type { RunRequest } from "./run-store.js";

/** The pipeline of a stored run as written (its steps, outputs and `max_credits`). */
export type WrittenPipeline = ReturnType<typeof writtenSpec>;

/** How many runs' pipelines a worker process keeps parsed (the least recently used goes first). */
export const WRITTEN_PIPELINES_KEPT = 32;

/** The step kinds a worker process knows, by name. */
type Kinds = RunServicesOf["kinds"];

/** A run's pipeline as parsed here, and who reads each step's outputs, by the kinds asked. */
interface Kept {
  spec: WrittenPipeline;
  readers: WeakMap<Kinds, StepReadersOf>;
}

/**
 * The stored pipelines of the runs a worker process works on, each parsed once: every unit
 * of a run asks for it (who reads its outputs, the run's budget), and a run of 5,000 clips
 * must not parse its text 5,000 times, nor work out 5,000 times who reads each step's
 * outputs. Keyed by the run and its pipeline's hash, bounded (what is worked out of a
 * pipeline goes with it).
 * @example const written = writtenPipelines(); written.of(run).max_credits // 60
 */
export function writtenPipelines(kept = WRITTEN_PIPELINES_KEPT) {
  const parsed = new Map<string, Kept>();
  let parses = 0;
  let readerIndexes = 0;
  const entry = (run: Pick<RunRequest, "runId" | "pipelineHash" | "pipelineSource">): Kept => {
    const key = `${run.runId}\n${run.pipelineHash}`;
    const known = parsed.get(key);
    if (known) {
      // Most recently used last: the first key is the one to forget.
      parsed.delete(key);
      parsed.set(key, known);
      return known;
    }
    const made = { spec: writtenSpec(run.pipelineSource), readers: new WeakMap() };
    parses += 1;
    parsed.set(key, made);
    if (parsed.size > kept) parsed.delete(parsed.keys().next().value as string);
    return made;
  };
  return {
    /** The run's pipeline as written, parsed on first use (throws if it is not a pipeline). */
    of(run: Pick<RunRequest, "runId" | "pipelineHash" | "pipelineSource">): WrittenPipeline {
      return entry(run).spec;
    },
    /** Who reads each step's outputs in the run's pipeline, worked out once per run and kinds. */
    readersOf(
      run: Pick<RunRequest, "runId" | "pipelineHash" | "pipelineSource">,
      kinds: Kinds,
    ): StepReadersOf {
      const kept = entry(run);
      const known = kept.readers.get(kinds);
      if (known) return known;
      const made = stepReaders(kept.spec, kinds);
      readerIndexes += 1;
      kept.readers.set(kinds, made);
      return made;
    },
    /** How many texts were parsed (each run's once while it is kept). */
    get parses() {
      return parses;
    },
    /** How many times who reads a run's step outputs was worked out (once per run and kinds). */
    get readerIndexes() {
      return readerIndexes;
    },
  };
}

/** This process's stored pipelines, shared by every unit and run workflow it runs. */
export const storedPipelines = writtenPipelines();

/**
 * The `pipeline` of a stored run's services: read from {@link storedPipelines} when first
 * asked, and who reads its outputs too (once per run in this process, not once per unit).
 */
export function storedPipeline(
  run: Pick<RunRequest, "runId" | "pipelineHash" | "pipelineSource">,
): RunServicesOf["pipeline"] {
  return {
    read: () => storedPipelines.of(run),
    readers: (kinds) => storedPipelines.readersOf(run, kinds),
  };
}

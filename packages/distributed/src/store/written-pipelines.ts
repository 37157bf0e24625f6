import { type RunServicesOf, writtenSpec } from "@reelsmith/runner/internal";
import type { RunRequest } from "./run-store.js";

/** The pipeline of a stored run as written (its steps, outputs and `max_credits`). */
export type WrittenPipeline = ReturnType<typeof writtenSpec>;

/** How many runs' pipelines a worker process keeps parsed (the least recently used goes first). */
export const WRITTEN_PIPELINES_KEPT = 32;

/**
 * The stored pipelines of the runs a worker process works on, each parsed once: every unit
 * of a run asks for it (who reads its outputs, the run's budget), and a run of 5,000 clips
 * must not parse its text 5,000 times. Keyed by the run and its pipeline's hash, bounded.
 * @example const written = writtenPipelines(); written.of(run).max_credits // 60
 */
export function writtenPipelines(kept = WRITTEN_PIPELINES_KEPT) {
  const parsed = new Map<string, WrittenPipeline>();
  let parses = 0;
  return {
    /** The run's pipeline as written, parsed on first use (throws if it is not a pipeline). */
    of(run: Pick<RunRequest, "runId" | "pipelineHash" | "pipelineSource">): WrittenPipeline {
      const key = `${run.runId}\n${run.pipelineHash}`;
      const known = parsed.get(key);
      if (known) {
        // Most recently used last: the first key is the one to forget.
        parsed.delete(key);
        parsed.set(key, known);
        return known;
      }
      const made = writtenSpec(run.pipelineSource);
      parses += 1;
      parsed.set(key, made);
      if (parsed.size > kept) parsed.delete(parsed.keys().next().value as string);
      return made;
    },
    /** How many texts were parsed (each run's once while it is kept). */
    get parses() {
      return parses;
    },
  };
}

/** This process's stored pipelines, shared by every unit and run workflow it runs. */
export const storedPipelines = writtenPipelines();

/** The `pipeline` of a stored run's services: read from {@link storedPipelines} when first asked. */
export function storedPipeline(
  run: Pick<RunRequest, "runId" | "pipelineHash" | "pipelineSource">,
): RunServicesOf["pipeline"] {
  return { read: () => storedPipelines.of(run) };
}

import type { RunState } from "../journal/journal-state.js";
import type { PipelineSpec } from "../pipeline/pipeline-spec.js";
import { kindOf } from "../steps/registry.js";
import type { AnyStepKind, HeldJob } from "../steps/step-kind.js";

/**
 * The jobs a resumed run's units hold at the service, as their kinds read their journaled
 * facts (every take's job included: a job listed for a retake is never an earlier take's).
 * @example new Set(heldJobs(previous, spec, kinds).map((job) => job.id))
 */
export function heldJobs(
  state: RunState | undefined,
  spec: Pick<PipelineSpec, "steps">,
  kinds: ReadonlyMap<string, AnyStepKind>,
): HeldJob[] {
  const held: HeldJob[] = [];
  // By id: a resumed run of thousands of clips holds thousands of jobs.
  const seen = new Set<string>();
  for (const [id, step] of state?.steps ?? []) {
    const definition = spec.steps.find((entry) => entry.id === id);
    const kind = definition ? kindOf(definition as Record<string, unknown>, kinds) : undefined;
    if (!kind?.heldJob) continue;
    for (const item of step.items.values()) {
      const hold = (known: Record<string, Record<string, unknown>>) => {
        const job = kind.heldJob?.(known);
        if (job && !seen.has(job.id)) {
          seen.add(job.id);
          held.push(job);
        }
      };
      hold(item.facts);
      for (const take of item.takes?.takes.values() ?? []) hold(take.facts);
    }
  }
  return held;
}

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
  for (const [id, step] of state?.steps ?? []) {
    const definition = spec.steps.find((entry) => entry.id === id);
    const kind = definition ? kindOf(definition as Record<string, unknown>, kinds) : undefined;
    if (!kind?.heldJob) continue;
    for (const item of step.items.values()) {
      const facts = [item.facts, ...[...(item.takes?.takes.values() ?? [])].map((t) => t.facts)];
      for (const known of facts) {
        const job = kind.heldJob(known as Record<string, Record<string, unknown>>);
        if (job && !held.some((other) => other.id === job.id)) held.push(job);
      }
    }
  }
  return held;
}

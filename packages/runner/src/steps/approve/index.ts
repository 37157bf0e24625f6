import { defineStepKind, loadOnce } from "../define-step-kind.js";
import { BOOLEAN, objectOf, STRING } from "../static-types.js";
import type { ApproveStepSpec } from "./approve-schema.js";

/** Its `run` (and request check), loaded on first use. */
const approveStep = loadOnce(() => import("./approve-step.js"));

export type { ApproveStepSpec } from "./approve-schema.js";

/**
 * The `approve` step kind: a gate. The run stops there (status `waiting`) until someone
 * approves or rejects it (`reelsmith approve|reject`, journaled with who and when); what
 * does not depend on it finishes first, what depends on it starts only once it is approved.
 * It sends no request and costs nothing. Its schema and its `run` load on first use.
 *
 * @example
 * ```ts
 * approveKind.plan({}, {}); // { credits: 0 }
 * ```
 */
export const approveKind = defineStepKind<ApproveStepSpec>({
  kind: "approve",
  schema: async () => (await import("./approve-schema.js")).ApproveStepSchema,
  defaultsSchema: async () => (await import("./approve-schema.js")).ApproveDefaultsSchema,
  queue: "local",
  // One decision covers the step: a gate is never a fan-out.
  fanOut: false,
  outputs: () => objectOf({ approved: BOOLEAN, by: STRING, at: STRING, note: STRING }, true),
  plan: () => ({ credits: 0 }),
  writes: () => [],
  totals: () => ({}),
  summary: (spec) => `approval: ${String(spec.message ?? "")}`,
  report: { role: "approval" },
  run: async (spec, context) => (await approveStep()).runApproveStep(spec, context),
});

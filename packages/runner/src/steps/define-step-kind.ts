import type { RunTotals } from "../events/index.js";
import { objectOf } from "./static-types.js";
import type { StepKind, StepKindSpec } from "./step-kind.js";

/**
 * What a unit spent, read from its outputs: chat-style `usage` tokens and a `credits` figure.
 * A kind with other figures gives its own `totals`.
 * @example usageAndCredits({ usage: { prompt_tokens: 3, completion_tokens: 4 } }) // { promptTokens: 3, … }
 */
export function usageAndCredits(outputs: Record<string, unknown>): Partial<RunTotals> {
  const totals: Partial<RunTotals> = {};
  const usage = outputs.usage as Record<string, unknown> | undefined;
  if (usage && typeof usage === "object") {
    totals.promptTokens = Number(usage.prompt_tokens ?? 0) || 0;
    totals.completionTokens = Number(usage.completion_tokens ?? 0) || 0;
    totals.totalTokens =
      Number(usage.total_tokens ?? 0) || totals.promptTokens + totals.completionTokens;
  }
  if (typeof outputs.credits === "number") totals.credits = outputs.credits;
  return totals;
}

/**
 * A step kind with every question answered: what the spec leaves out gets the neutral
 * answer (no files, no models, runs on this machine, outputs of unknown fields, nothing to
 * plan, totals from `usage` and `credits`, no summary). A schema given as a value is
 * wrapped, so every kind's `schema()` loads alike.
 * @example
 * ```ts
 * export const echoKind = defineStepKind({ kind: "echo", schema: Type.Object({}), run: async () => ({}) });
 * ```
 */
export function defineStepKind<Spec = Record<string, unknown>>(
  spec: StepKindSpec<Spec>,
): StepKind<Spec> {
  if (isDefined(spec)) return spec as unknown as StepKind<Spec>;
  const schema = spec.schema;
  const kind = {
    ...spec,
    [defined]: true,
    schema: async () => (typeof schema === "function" ? await schema() : schema),
    queue: spec.queue ?? "local",
    outputs: spec.outputs ?? (() => objectOf({})),
    files: spec.files ?? (() => []),
    models: spec.models ?? [],
    plan: spec.plan ?? (() => ({})),
    totals: spec.totals ?? usageAndCredits,
    summary: spec.summary ?? (() => ""),
  };
  return kind as StepKind<Spec>;
}

/**
 * A part of a path a kind's `writes` does not know before the run (an item's index): it
 * matches any text, as an expression in a path does.
 * @example `${stepId}/${ANY_PART}.mp4` // "clips/${{ any }}.mp4"
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: an expression as a pipeline writes it
export const ANY_PART = "${{ any }}";

/** Marks kinds made by {@link defineStepKind} (defining one again keeps it as it is). */
const defined = Symbol.for("reelsmith.step-kind");

function isDefined(value: unknown): boolean {
  return typeof value === "object" && value !== null && defined in value;
}

/**
 * A module a step kind loads on first use, imported once: `import()` of a module already
 * loaded still resolves it again (about 25 µs), and a run of many quick steps calls `run`
 * for each. A failed import is tried again on the next call.
 * @example const chatStep = loadOnce(() => import("./chat-step.js")); (await chatStep()).runChatStep(spec, context);
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

import type { Plan } from "@reelsmith/runner";
import { formatEstimate } from "./format-estimate.js";

function shortValue(value: unknown, max = 60): string {
  const text =
    typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? "undefined");
  const flat = text.replace(/\\n/g, " ").replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 2)}…${flat.at(0) === '"' ? '"' : ""}` : flat;
}

/**
 * A plan as text: the stages (steps that run together) with their fan-outs, every request with
 * the values known before the run (and which fields are known only at run time), and the
 * limits that apply.
 *
 * @example
 * context.stdout.write(formatPlan(planPipeline(pipeline, { inputs })));
 */
export function formatPlan(
  plan: Plan,
  runLimits: { concurrency: number; maxVideos: number } = { concurrency: 8, maxVideos: 4 },
): string {
  const lines: string[] = [`plan ${plan.name}${plan.description ? ` — ${plan.description}` : ""}`];
  if (plan.inputs) {
    const inputs = Object.entries(plan.inputs).map(([k, v]) => `${k}=${shortValue(v, 40)}`);
    if (inputs.length > 0) lines.push(`inputs: ${inputs.join(", ")}`);
  }
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  lines.push("", "stages (steps in one stage run together):");
  for (const stage of plan.stages) {
    const parts = stage.steps.map((id) => {
      const step = byId.get(id);
      if (!step) return id;
      let text = `${id} (${step.kind})`;
      if (step.fanOut) {
        const { items, from, atLeast, atMost } = step.fanOut;
        const size =
          items !== undefined
            ? `× ${items}`
            : atMost !== undefined
              ? `× ${atLeast ?? 0}–${atMost}`
              : atLeast
                ? `× ${atLeast} or more`
                : "";
        const count = [size, from ? `over ${from}` : items === undefined ? "over a list" : ""]
          .filter(Boolean)
          .join(" ");
        const parallel = step.fanOut.maxParallel ? `, ${step.fanOut.maxParallel} at a time` : "";
        text += ` fan-out ${count}${parallel}`;
      }
      if (step.condition) text += ` if ${step.condition}`;
      return text;
    });
    lines.push(`  ${stage.index + 1}. ${parts.join(" | ")}`);
  }
  lines.push("", "requests (values known now; the rest at run time):");
  for (const step of plan.steps) {
    lines.push(`  ${step.id} (${step.kind})`);
    const known = Object.entries(step.request.known).filter(([, value]) => value !== undefined);
    const width = Math.max(0, ...known.map(([key]) => key.length));
    for (const [key, value] of known)
      lines.push(`    ${key.padEnd(width)}  ${shortValue(value, 72)}`);
    if (step.request.pending.length > 0) {
      lines.push(`    known at run time: ${step.request.pending.join(", ")}`);
    }
  }
  lines.push("", "limits:");
  for (const model of plan.limits.models) {
    lines.push(
      `  ${model.model}: ${model.seconds ?? "seconds unknown"}, sizes ${model.sizes ?? "unknown"} (used by ${model.steps.join(", ")})`,
    );
  }
  lines.push(
    `  budget: ${plan.limits.maxCredits === undefined ? "none (set max_credits or --max-credits)" : `${plan.limits.maxCredits} credits`}`,
  );
  const [cost, ...costSteps] = formatEstimate(plan.limits.estimate, plan.limits.maxCredits);
  lines.push(`  ${cost}`, ...costSteps.map((line) => `  ${line}`));
  if (plan.limits.maxCredits !== undefined && plan.limits.estimate.otherUnits)
    lines.push(
      `  refused: the budget is in credits and ${Object.keys(plan.limits.estimate.otherUnits).join(", ")} is not; state credits_per_unit for ${[...new Set(Object.values(plan.limits.estimate.otherUnits).flatMap((total) => total.providers))].map((name) => `providers.${name}`).join(", ")}, or run without a credit budget`,
    );
  else if (
    plan.limits.maxCredits !== undefined &&
    plan.limits.estimate.credits > plan.limits.maxCredits
  )
    lines.push(
      `  over budget: a run would be refused before its first request (${plan.limits.estimate.credits} > ${plan.limits.maxCredits})`,
    );
  const requests = Object.entries(plan.limits.requests ?? {}).map(
    ([name, count]) =>
      `${plan.limits.requestLabels?.[name] ?? name}: ${count ?? "known at run time"}`,
  );
  lines.push(`  ${requests.length > 0 ? requests.join("; ") : "paid requests: none"}`);
  lines.push(
    `  in flight: ${runLimits.concurrency} steps or items, ${runLimits.maxVideos} video jobs (--concurrency, --max-videos)`,
  );
  if (plan.problems.length > 0) {
    lines.push(
      "",
      "problems (a run would be refused):",
      ...plan.problems.map((problem) => `  - ${problem.step}: ${problem.message}`),
    );
  }
  if (plan.notes.length > 0) {
    lines.push("", "notes:", ...plan.notes.map((note) => `  - ${note}`));
  }
  return `${lines.join("\n")}\n`;
}

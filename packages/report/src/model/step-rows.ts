import type { RunTotals } from "@reelsmith/runner";
import { addTotals, emptyTotals } from "@reelsmith/runner/internal";
import type { Ledger } from "@reelsmith/runner/runs";
import { countItems, type EventFacts } from "./model-events.js";
import type { RunRecord } from "./read-run.js";
import type { StepRow, SubRunRow } from "./report-model.js";
import { runFile } from "./run-file.js";
import type { StepInfo } from "./timeline-marks.js";

function totalsFrom(value: unknown): RunTotals {
  const totals = emptyTotals();
  if (value && typeof value === "object") addTotals(totals, value as Partial<RunTotals>);
  return totals;
}

/**
 * The run's sub-runs by the step that started them (the longest step id their name starts
 * with), each with its status, figures and report.
 * @example subRunsByStep(record, stepInfos).get("scenes") // [{ name: "subruns/scenes-0", … }]
 */
export function subRunsByStep(
  record: RunRecord,
  stepInfos: readonly StepInfo[],
): Map<string, SubRunRow[]> {
  const byStep = new Map<string, SubRunRow[]>();
  for (const sub of record.subRuns) {
    const owner = [...stepInfos]
      .map((s) => s.id)
      .filter((id) => sub.name.startsWith(`${id}-`))
      .sort((a, b) => b.length - a.length)[0];
    const row: SubRunRow = {
      name: `subruns/${sub.name}`,
      ...(sub.runJson.name ? { pipeline: sub.runJson.name } : {}),
      status: sub.runJson.status ?? "unknown",
      totals: totalsFrom(sub.runJson.totals),
    };
    const report = runFile(record.runDir, `${sub.dir}/report.html`);
    if (report?.exists) row.report = report;
    let list = byStep.get(owner ?? "");
    if (!list) {
      list = [];
      byStep.set(owner ?? "", list);
    }
    list.push(row);
  }
  return byStep;
}

/**
 * The steps table: each step's status, items, time, figures (the ledger's), estimate and
 * sub-runs.
 * @example const steps = stepRows(record, stepInfos, { facts, ledger });
 */
export function stepRows(
  record: RunRecord,
  stepInfos: readonly StepInfo[],
  { facts, ledger }: { facts: EventFacts; ledger: Ledger },
): StepRow[] {
  const subRuns = subRunsByStep(record, stepInfos);
  return stepInfos.map((info) => {
    const journaled = record.state.steps.get(info.id);
    const totals = ledger.steps[info.id] ?? emptyTotals();
    const stepEstimate = facts.estimate?.steps[info.id];
    const duration = facts.durations.get(info.id);
    return {
      id: info.id,
      kind: info.kind,
      fanOut: info.fanOut,
      status: journaled?.status ?? "pending",
      items: info.fanOut ? countItems(info.id, journaled?.items.size ?? 0, record.events) : 1,
      ...(duration === undefined ? {} : { durationMs: duration }),
      totals,
      ...(stepEstimate ? { estimate: stepEstimate } : {}),
      subRuns: subRuns.get(info.id) ?? [],
    };
  });
}

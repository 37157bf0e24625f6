import type { ResumeReason } from "../contracts/run-event.js";

/**
 * What a resumed run says of a step done in an earlier session: what happened in between
 * (a gate approved, a take of another step, an interruption, a failure, the budget).
 * @example keptBecause("gate") // "done before the approval, kept"
 */
export function keptBecause(reason: ResumeReason | undefined): string {
  return KEPT[reason ?? "interruption"];
}

const KEPT: Record<ResumeReason, string> = {
  gate: "done before the approval, kept",
  take: "kept as it was (not retaken)",
  interruption: "done before the interruption, reused",
  failed: "done before the failure, reused",
  budget: "done before the budget was reached, reused",
};

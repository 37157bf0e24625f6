import type { ApprovalGate } from "./report-model.js";

/**
 * Why the run stopped where it did, in one line for the page's header.
 * @example exitReason("failed", { message: "clips #1: the job failed" }, false, []) // { exitReason: "clips #1: the job failed" }
 */
export function exitReason(
  status: string,
  error: { message?: string } | undefined,
  locked: boolean,
  approvals: readonly ApprovalGate[],
): { exitReason?: string } {
  if (status === "succeeded") return { exitReason: "finished: every step succeeded" };
  if (status === "waiting") {
    const at = approvals.filter((gate) => gate.state === "waiting").map((gate) => gate.step);
    return {
      exitReason: `waiting for approval at ${at.join(", ") || "a gate"}: approve it (reelsmith approve), then resume`,
    };
  }
  if (status === "rejected") return { exitReason: error?.message ?? "a gate was rejected" };
  if (status === "cancelled") return { exitReason: "interrupted (resume with reelsmith resume)" };
  if (status === "failed") return { exitReason: error?.message ?? "a step failed" };
  if (status === "running")
    return {
      exitReason: locked
        ? "still running: this page shows what is known so far"
        : "stopped before its end (killed?): resume with reelsmith resume",
    };
  return {};
}

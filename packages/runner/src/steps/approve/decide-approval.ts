import { join } from "node:path";
import { inspectRun } from "../../executor/inspect-run.js";
import { replayJournal } from "../../executor/replay-journal.js";
import { openJournal, readJournal } from "../../journal/journal.js";
import { acquireRunLock } from "../../journal/run-lock.js";
import type { ApprovalDecision } from "./approval-journal.js";
import { type DecisionRequest, planDecision } from "./plan-decision.js";

/**
 * Approves or rejects a gate (`approve:` step) of a run stopped there, by journaling the
 * decision in its run directory (under the run's lock: never while a process drives it).
 * Nothing runs: resume the run to go on (`runPipeline(undefined, { resume: runDir })`).
 * Throws ApprovalRefusedError when the run waits at no such gate (or its timeout passed),
 * ResumeError when the directory is not a run or is in use.
 * @example
 * const { step } = await decideApproval("runs/20260101-120000-storyboard", { approved: true, by: "ana" });
 * await runPipeline(undefined, { resume: "runs/20260101-120000-storyboard" });
 */
export async function decideApproval(
  runDir: string,
  request: DecisionRequest,
): Promise<{ step: string; decision: ApprovalDecision }> {
  const run = inspectRun(runDir);
  const release = acquireRunLock(run.runDir);
  try {
    const file = join(run.runDir, "journal.jsonl");
    // Read again under the lock: what a process that just ended wrote counts.
    const state = replayJournal(readJournal(file));
    const { gate, decision, record } = planDecision(state, request, run.runDir);
    const journal = openJournal(file);
    try {
      await journal.append(record);
    } finally {
      await journal.close();
    }
    return { step: gate.step, decision };
  } finally {
    release();
  }
}

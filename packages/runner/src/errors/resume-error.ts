import { RunnerError } from "./runner-error.js";
import type { ResumeErrorCode } from "./runner-error-code.js";

/**
 * The directory given to `resume` (or `retake`, `pick`, `approve`, which read a run the
 * same way) is not a run it can go on with (no journal, no start record, locked). The
 * message names the directory and the reason, not the command: every one of them throws it.
 * @example throw new ResumeError("runs/x", "no journal.jsonl"); // "runs/x: no journal.jsonl"
 */
export class ResumeError extends RunnerError {
  readonly runDir: string;
  constructor(runDir: string, reason: string, code: ResumeErrorCode = "resume_invalid") {
    super(code, `${runDir}: ${reason}`, { category: "invalid" });
    this.runDir = runDir;
  }
}

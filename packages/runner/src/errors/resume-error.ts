import { RunnerError } from "./runner-error.js";
import type { ResumeErrorCode } from "./runner-error-code.js";

/**
 * The directory given to `resume` is not a resumable run (no journal, no start record).
 * @example throw new ResumeError("runs/x", "no journal.jsonl");
 */
export class ResumeError extends RunnerError {
  readonly runDir: string;
  constructor(runDir: string, reason: string, code: ResumeErrorCode = "resume_invalid") {
    super(code, `Cannot resume ${runDir}: ${reason}.`, { category: "invalid" });
    this.runDir = runDir;
  }
}

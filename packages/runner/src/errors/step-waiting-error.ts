import { RunnerError } from "./runner-error.js";

/**
 * A step cannot finish until a decision comes from outside the run (an approval): the step
 * ends `waiting`, nothing that depends on it starts, and the run ends `waiting` once every
 * other step has settled. A resume runs the step again. `details` is the kind's own account
 * of what it waits for (journaled with the step's `step.wait` record and sent in its event).
 * @example throw new StepWaitingError("review", "waits for approval: check the storyboard", { message: "check the storyboard" });
 */
export class StepWaitingError extends RunnerError {
  readonly step: string;
  /** One sentence for people: what the step waits for. */
  readonly reason: string;
  readonly details: Record<string, unknown>;
  constructor(step: string, reason: string, details: Record<string, unknown> = {}) {
    super("step_waiting", `step "${step}" ${reason}`, { category: "waiting" });
    this.step = step;
    this.reason = reason;
    this.details = details;
  }
}

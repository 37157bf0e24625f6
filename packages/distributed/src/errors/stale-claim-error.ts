import { RunnerError } from "@reelsmith/runner";

/**
 * A unit's claim is no longer current: another worker took the unit over while this one was
 * frozen or cut off from the database, so this one did not do `action` and drops the unit.
 * @example throw new StaleClaimError("r1:1:clips:3", 2, "send POST /v1/videos");
 */
export class StaleClaimError extends RunnerError<"stale_claim"> {
  readonly unitId: string;
  readonly epoch: number;
  readonly action: string;
  constructor(unitId: string, epoch: number, action: string) {
    super(
      "stale_claim",
      `unit ${unitId} was taken over by another worker (this worker's claim ${epoch} is no longer current): did not ${action}; this worker drops the unit`,
    );
    this.unitId = unitId;
    this.epoch = epoch;
    this.action = action;
  }
}

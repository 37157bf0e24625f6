import { RunnerError } from "./runner-error.js";

/**
 * `runDir` names a directory that already holds a run (or other files): a new run is never
 * written into it, so two runs cannot mix their journals, clips and idempotency keys.
 * @example throw new RunDirectoryInUseError("out", "it already holds a run");
 */
export class RunDirectoryInUseError extends RunnerError {
  readonly runDir: string;
  declare readonly hint: string;
  constructor(runDir: string, reason: string) {
    super("run_dir_in_use", `Cannot start a run in ${runDir}: ${reason}.`, {
      category: "invalid",
      hint: `continue that run with \`reelsmith resume ${runDir}\`, or pass a new or empty --run-dir`,
    });
    this.runDir = runDir;
  }
}

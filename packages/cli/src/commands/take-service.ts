import path from "node:path";
import type { OpenedRun, RunOnDisk } from "@reelsmith/runner/runs";
import { resolveService } from "../config/cli-profile.js";
import type { CliContext } from "../context.js";
import { CliError } from "../errors/cli-error.js";
import { isReachable } from "../services/reachable.js";
import type { ExecuteRunOptions } from "./execute-run.js";
import { asTakeUsageError } from "./take-options.js";

/** Connection flags of `retake` and `pick`. */
export interface TakeServiceFlags {
  baseUrl?: string;
  apiKey?: string;
}

/**
 * How `retake` and `pick` reach a run's service, as `resume` does: a run begun on the built-in
 * simulator goes on on a new one; any other on its recorded base URL (or `--base-url`). A
 * retake needs it reachable (it pays for a job); a pick asks it nothing.
 * @example const target = await takeService("runs/x", flags, context, { needsService: true });
 */
export async function takeService(
  runDir: string,
  flags: TakeServiceFlags,
  context: CliContext,
  options: {
    needsService: boolean;
    /** The run as it was read already (`openRun`): not read again. */
    recorded?: RunOnDisk;
  },
): Promise<Pick<ExecuteRunOptions, "pipeline" | "resume" | "builtIn" | "baseUrl">> {
  const absolute = path.resolve(context.cwd, runDir);
  const { refuseDatabaseRunDirectory } = await import("../distributed/database-run-directory.js");
  refuseDatabaseRunDirectory(absolute, options.needsService ? "retake" : "pick");
  const recorded =
    options.recorded ?? (await import("@reelsmith/runner/runs")).inspectRun(absolute);
  const pipeline = recorded.pipelinePath;
  if (recorded.builtInService && !flags.baseUrl) {
    return { pipeline, resume: absolute, builtIn: true };
  }
  const baseUrl =
    flags.baseUrl ?? recorded.baseURL ?? (await resolveService(flags, context)).connection.baseURL;
  if (!baseUrl) {
    throw new CliError(`${runDir} recorded no service, and none is configured`, {
      code: "no_service",
      hint: "pass the service the run used with --base-url (or set REELSMITH_BASE_URL)",
    });
  }
  if (options.needsService && !(await isReachable(baseUrl, 5000))) {
    throw new CliError(
      `the run's service at ${baseUrl} cannot be reached; nothing was changed in ${runDir}`,
      {
        code: "service_unreachable",
        hint: "a new take is made on the service the run started with: start or reach it and retake again, or pass --base-url if it moved",
      },
    );
  }
  return { pipeline, resume: absolute, baseUrl };
}

/**
 * Runs a retake or a pick of a run: the run opened once (under its lock, its journal read
 * and replayed once), checked (a bad step, item or take is refused before any service is
 * started or anything is written), then the session on the run's service, going on from that
 * same reading; refusals become usage errors naming the run as typed.
 * @example return executeTake("runs/x", flags, context, { pick: { step: "clips", index: 1, take: 1 } });
 */
export async function executeTake(
  runDir: string,
  flags: TakeServiceFlags & Omit<ExecuteRunOptions, "pipeline" | "take">,
  context: CliContext,
  take: NonNullable<ExecuteRunOptions["take"]>,
): Promise<number> {
  const absolute = path.resolve(context.cwd, runDir);
  let opened: OpenedRun | undefined;
  try {
    const [{ openRun }, runner] = await Promise.all([
      import("@reelsmith/runner/runs"),
      import("@reelsmith/runner/internal"),
    ]);
    // Validated by the run with the profile's catalogs (and with positions by executeRun).
    opened = await openRun(absolute, { validate: false });
    if ("retake" in take) await runner.checkRetake(opened, take.retake);
    else await runner.checkPick(opened, take.pick);
    const target = await takeService(runDir, flags, context, {
      needsService: "retake" in take,
      recorded: opened.onDisk,
    });
    const { executeRun } = await import("./execute-run.js");
    return await executeRun({ ...flags, ...target, take: { ...take, opened } }, context);
  } catch (error) {
    throw await asTakeUsageError(error, absolute, runDir, context);
  } finally {
    opened?.release();
  }
}

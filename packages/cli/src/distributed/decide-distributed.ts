import { decideRun } from "@reelsmith/distributed";
import type { DecisionRequest } from "@reelsmith/runner/runs";
import type { CliContext } from "../context.js";
import { ExitCode } from "../errors/cli-error.js";
import { openCoordinator } from "./database-option.js";
import { executeDistributedRun } from "./execute-distributed-run.js";

/**
 * `approve|reject RUN_ID --database URL`: journals the decision in the database journal and
 * sends it to the run's wait, whose worker takes the run on (approved: what is behind the
 * gate runs; rejected: the run ends `rejected`). `--continue` then follows the run.
 * @example await decideDistributed(runId, { approved: true, by: "ana" }, { database }, context);
 */
export async function decideDistributed(
  runId: string,
  request: DecisionRequest,
  flags: { database: string; continue?: boolean; json?: boolean },
  context: CliContext,
): Promise<number> {
  const coordinator = await openCoordinator(flags.database, context);
  let attempt: number;
  try {
    const recorded = await decideRun(coordinator, runId, request);
    attempt = recorded.attempt;
    const { decision } = recorded;
    const note = decision.note ? ` (${decision.note})` : "";
    const out = flags.json ? context.stderr : context.stdout;
    out.write(
      `${decision.approved ? "approved" : "rejected"} "${recorded.step}" of run ${runId} by ${decision.by} at ${decision.at}${note}; its workers go on with it${flags.continue ? "" : ` (watch it with: reelsmith status ${runId} --database …)`}\n`,
    );
  } finally {
    await coordinator.close();
  }
  if (!flags.continue) return ExitCode.ok;
  return executeDistributedRun(
    {
      database: flags.database,
      resumeRunId: runId,
      continuesFrom: attempt,
      ...(flags.json ? { json: true } : {}),
    },
    context,
  );
}

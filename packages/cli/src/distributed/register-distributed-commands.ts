import type { Command } from "commander";
import { parsePositiveInteger } from "../commands/option-parsers.js";
import { connectionOption } from "../commands/run-command.js";
import type { CliContext } from "../context.js";
import { databaseOption } from "./database-option.js";

// Loaded on use: DBOS and the database client are needed only by these commands.
const commands = () => import("./distributed-commands.js");

/**
 * Declares `worker`, `status` and `cancel`.
 * @example registerDistributedCommands(program, context, (code) => (exitCode = code));
 */
export function registerDistributedCommands(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("worker")
    .summary("run queued work from the shared database until stopped")
    .addOption(databaseOption())
    .option("--concurrency <n>", "units this worker runs at once (default 8)", parsePositiveInteger)
    .option(
      "--grace <seconds>",
      "on stop, how long running units may finish (default 10)",
      parsePositiveInteger,
    )
    .option(
      "--startup-timeout <seconds>",
      "how long each wait for the database at start-up may last (default REELSMITH_DATABASE_TIMEOUT, else 120)",
      parsePositiveInteger,
    )
    .addOption(
      connectionOption(
        "--api-key <key>",
        "API key (else REELSMITH_API_KEY, the run's profile's service.api_key_env, OPENAI_API_KEY)",
      ),
    )
    .action(async (flags) => done(await (await commands()).workerCommand(flags, context)));
  program
    .command("status")
    .summary("runs in the shared database: state, steps, units, jobs, credits")
    .argument(
      "[run-id]",
      "one run in detail, or a batch (its id or its directory's name): its rows",
    )
    .addOption(databaseOption())
    .option("--json", "print JSON")
    .action(async (runId: string | undefined, flags) =>
      done(await (await commands()).statusCommand(runId, flags, context)),
    );
  program
    .command("cancel")
    .summary("cancel a run in the shared database")
    .argument("<run-id>", "the run to cancel")
    .addOption(databaseOption())
    .action(async (runId: string, flags) =>
      done(await (await commands()).cancelCommand(runId, flags, context)),
    );
}

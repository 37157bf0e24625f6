import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { databaseOption, databaseUrl } from "../distributed/database-option.js";
import { ExitCode, UsageError } from "../errors/cli-error.js";
import { displayPath } from "../render/display-path.js";
import { decidedBy } from "./approval-options.js";
import { type ClosedOutputChoice, closedOutputOption } from "./closed-output-option.js";
import { resumeCommand } from "./resume-command.js";

/** Flags of `reelsmith approve` and `reelsmith reject`. */
export interface DecideFlags {
  step?: string;
  /** The row of a batch directory whose run waits (`--row ID`). */
  row?: string;
  note?: string;
  by?: string;
  continue?: boolean;
  json?: boolean;
  database?: string;
  /** `--on-closed-output`: stop (default) or continue when stdout or stderr is closed. */
  onClosedOutput?: ClosedOutputChoice;
}

/**
 * `reelsmith approve RUN` / `reelsmith reject RUN`: journals the decision on the gate the run
 * waits at (who: `--by`, else $REELSMITH_USER, else the OS user; when: now). Refused (exit 2)
 * when the run waits at no gate, when `--step` names no waiting gate, when several wait and
 * none is named, or when the gate's timeout passed. A local run goes on with `reelsmith
 * resume` (or `--continue` here); with `--database` the run's workers go on by themselves.
 *
 * @example
 * const code = await decideCommand("runs/20260101-120000-storyboard", { note: "ok" }, true, context);
 */
export async function decideCommand(
  run: string,
  flags: DecideFlags,
  approved: boolean,
  context: CliContext,
): Promise<number> {
  const by = decidedBy(flags, context);
  const request = {
    approved,
    by,
    ...(flags.step ? { step: flags.step } : {}),
    ...(flags.note ? { note: flags.note } : {}),
  };
  const database = databaseUrl(flags, context);
  const given = path.resolve(context.cwd, run);
  const batch =
    database && !existsSync(given) ? undefined : await batchRow(given, flags.row, context);
  if (database) {
    // Loaded on use: DBOS and the database client are needed only with --database.
    const { decideDistributed } = await import("../distributed/decide-distributed.js");
    // A batch's row: its run on the workers (they go on with it by themselves).
    return decideDistributed(batch?.runId ?? run, request, { database, ...flags }, context);
  }
  const { decideApproval } = await import("@reelsmith/runner/runs");
  const runDir = batch?.runDir ?? given;
  const { step, decision } = await decideApproval(runDir, request);
  const shown = displayPath(runDir, context.cwd);
  const note = decision.note ? ` (${decision.note})` : "";
  // With --json, stdout carries the resumed run's events only.
  const out = flags.json ? context.stderr : context.stdout;
  out.write(
    `${approved ? "approved" : "rejected"} "${step}" of ${shown} by ${decision.by} at ${decision.at}${note}\n`,
  );
  if (flags.continue) {
    return resumeCommand(
      run,
      {
        ...(flags.json ? { json: true } : {}),
        ...(flags.onClosedOutput ? { onClosedOutput: flags.onClosedOutput } : {}),
      },
      context,
    );
  }
  const next = batch ? displayPath(given, context.cwd) : shown;
  out.write(
    approved
      ? `continue with: reelsmith resume ${next}\n`
      : `end the run with: reelsmith resume ${next} (nothing behind the gate runs)\n`,
  );
  return ExitCode.ok;
}

/**
 * The run directory of a batch's row (`--row ID`), when `dir` is a batch directory; refuses
 * a batch without `--row` (naming the rows that wait) and `--row` on a run directory.
 */
async function batchRow(
  dir: string,
  row: string | undefined,
  context: CliContext,
): Promise<{ runDir: string; runId?: string } | undefined> {
  const { isBatchDirectory, readBatchJson, batchPath } = await import("@reelsmith/runner/batch");
  const shown = displayPath(dir, context.cwd);
  if (!isBatchDirectory(dir)) {
    if (row === undefined) return undefined;
    throw new UsageError(`--row is for a batch directory, and ${shown} is a run directory`, {
      code: "not_a_batch",
      hint: `leave out --row: reelsmith approve ${shown}`,
    });
  }
  const rows = readBatchJson(dir)?.rows ?? [];
  const waiting = rows.filter((each) => each.status === "waiting").map((each) => each.id);
  const which = waiting.length > 0 ? `rows waiting: ${waiting.join(", ")}` : "no row waits";
  if (row === undefined) {
    throw new UsageError(`${shown} is a batch: say which row's gate to decide (${which})`, {
      code: "row_required",
      hint: `reelsmith approve ${shown} --row ${waiting[0] ?? "ID"}`,
    });
  }
  const found = rows.find((each) => each.id === row);
  if (!found?.runDir) {
    throw new UsageError(
      found
        ? `row ${row} of ${shown} has not started, so it waits at no gate (${which})`
        : `${shown} has no row ${row} (${which})`,
      { code: "unknown_row", hint: `reelsmith approve ${shown} --row ${waiting[0] ?? "ID"}` },
    );
  }
  return {
    runDir: batchPath(dir, found.runDir),
    ...(found.runId ? { runId: found.runId } : {}),
  };
}

/**
 * Declare `approve` and `reject` on the program.
 *
 * @example
 * registerDecideCommands(program, context, (code) => (exitCode = code));
 */
export function registerDecideCommands(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  for (const approved of [true, false]) {
    const verb = approved ? "approve" : "reject";
    program
      .command(verb)
      .summary(
        approved
          ? "approve the gate a run waits at (an `approve:` step)"
          : "reject the gate a run waits at: the run ends rejected",
      )
      .description(
        approved
          ? "Journal an approval of the gate (`approve:` step) a stopped run waits at; then `reelsmith resume` runs what is behind it (or pass --continue). With --database the workers go on by themselves."
          : "Journal a rejection of the gate (`approve:` step) a stopped run waits at; resuming ends the run `rejected` without running what is behind it. With --database the workers end it by themselves.",
      )
      .argument(
        "<run>",
        "the run directory, or a batch directory with --row (with --database: the run id)",
      )
      .option("--step <id>", "the gate, when the run waits at several")
      .option("--row <id>", "with a batch directory: the row whose run waits at the gate")
      .option("--note <text>", "why (journaled, shown by the report and status)")
      .option("--by <name>", "who decides (else REELSMITH_USER, else the OS user)")
      .option(
        "--continue",
        approved
          ? "then resume the run at once (with --database: follow it)"
          : "then resume the run at once, which ends it rejected (with --database: follow it)",
      )
      .option("--json", "with --continue: print NDJSON events on stdout")
      .addOption(closedOutputOption())
      .addOption(databaseOption())
      .addHelpText(
        "after",
        `\nExamples:\n  reelsmith ${verb} runs/20260101-120000-storyboard${approved ? " --note 'scenes read' --continue" : " --note 'scene 2 is off'"}\n  reelsmith ${verb} runs/20260101-120000-storyboard-batch --row r-3f2a1b4c5d6e\n  reelsmith ${verb} 20260101-120000-storyboard-3f2a1b --database postgres://…`,
      )
      .action(async (run: string, flags: DecideFlags) =>
        done(await decideCommand(run, flags, approved, context)),
      );
  }
}

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { ExitCode, UsageError } from "../errors/cli-error.js";
import { displayPath } from "../render/display-path.js";

/** Flags of `reelsmith report`. */
export interface ReportFlags {
  open?: boolean;
}

/**
 * Write a run's report.html after `run`/`resume` (also after a failure or Ctrl-C). A report
 * that cannot be written never changes how the run ended: it is said in one line instead.
 *
 * @example
 * const file = await writeRunReport(result.runDir, context, (line) => renderer.note(line));
 */
export async function writeRunReport(
  runDir: string,
  context: CliContext,
  note: (line: string) => void,
): Promise<string | undefined> {
  // Loaded on use: the report pulls in the runner and media.
  const report = await import("@reelsmith/report").then(
    ({ writeRunEndReport }) => writeRunEndReport(runDir, { secrets: [...context.secrets] }),
    (error: unknown) => ({ error: (error as Error).message, postersFailed: [], file: undefined }),
  );
  for (const failure of report.postersFailed.slice(0, 3)) {
    note(`report: no poster frame for ${failure.file} (${failure.message})`);
  }
  if (report.error !== undefined) {
    note(
      `could not write the report (${report.error}); try again with: reelsmith report ${displayPath(runDir, context.cwd)}`,
    );
  }
  return report.file;
}

/** The command that opens a file with the desktop's default application, per platform. */
function opener(file: string): [string, string[]] {
  if (process.platform === "darwin") return ["open", [file]];
  if (process.platform === "win32") return ["cmd", ["/c", "start", "", file]];
  return ["xdg-open", [file]];
}

/**
 * `reelsmith report RUN_DIR [--open]`: (re)build the run's report.html from its journal, also
 * for a run still in progress, and print its path.
 *
 * @example
 * const code = await reportCommand("runs/20260101-100000-storyboard", {}, context);
 */
export async function reportCommand(
  runDir: string,
  flags: ReportFlags,
  context: CliContext,
): Promise<number> {
  const absolute = path.resolve(context.cwd, runDir);
  let file: string;
  let inProgress: boolean;
  const { NotARunDirectoryError, writeBatchReport, writeReport } = await import(
    "@reelsmith/report"
  );
  const { isBatchDirectory } = await import("@reelsmith/runner/batch");
  try {
    if (isBatchDirectory(absolute)) {
      // A batch: its batch.html, and each started row's own report.
      const written = await writeBatchReport(absolute, { secrets: [...context.secrets] });
      file = written.file;
      inProgress = written.model.batch.status === "running";
    } else {
      const written = await writeReport(absolute, { secrets: [...context.secrets] });
      file = written.file;
      inProgress = written.model.inProgress;
    }
  } catch (error) {
    if (error instanceof NotARunDirectoryError) {
      throw new UsageError(
        `${displayPath(absolute, context.cwd)} ${existsSync(absolute) ? "is not a reelsmith run directory" : "does not exist"}`,
        {
          code: "not_a_run_directory",
          hint: "pass a directory under runs/, as printed by `reelsmith run`",
        },
      );
    }
    throw error;
  }
  const shown = displayPath(file, context.cwd);
  if (inProgress)
    context.stderr.write("the run has not ended: the report shows what is known so far\n");
  context.stdout.write(`${shown}\n`);
  if (flags.open) {
    const [command, args] = opener(file);
    const child = spawn(command, args, { detached: true, stdio: "ignore" });
    child.on("error", (error) =>
      context.stderr.write(`could not open ${shown} (${error.message}); open it in a browser\n`),
    );
    child.unref();
  }
  return ExitCode.ok;
}

/**
 * Declare `report` on the program.
 *
 * @example
 * registerReportCommand(program, context, (code) => (exitCode = code));
 */
export function registerReportCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("report")
    .summary("write a run's report.html (storyboard, timeline, costs, errors)")
    .description(
      "Rebuild report.html in a run directory from its journal and events: a self-contained page (no network) with the storyboard, the final video, a timeline of every step and item, costs, chats and errors. Works while the run is still going.",
    )
    .argument("<run-dir>", "the run directory, e.g. runs/20260101-100000-storyboard")
    .option("--open", "open the report with the default browser")
    .action(async (dir: string, flags: ReportFlags) =>
      done(await reportCommand(dir, flags, context)),
    );
}

import { Command, CommanderError } from "commander";
import { cliVersion } from "./cli-version.js";
import { registerDecideCommands } from "./commands/approve-command.js";
import { registerBatchCommand } from "./commands/batch-command.js";
import { registerCacheCommand } from "./commands/cache-command.js";
import { registerInitCommand } from "./commands/init-command.js";
import { registerModelsCommand } from "./commands/models-command.js";
import { registerPickCommand } from "./commands/pick-command.js";
import { registerPlanCommand } from "./commands/plan-command.js";
import { registerReportCommand } from "./commands/report-command.js";
import { registerResumeCommand } from "./commands/resume-command.js";
import { registerRetakeCommand } from "./commands/retake-command.js";
import { registerRunCommand } from "./commands/run-command.js";
import { registerServeCommand } from "./commands/serve-command.js";
import { registerStudioCommand } from "./commands/studio-command.js";
import { registerValidateCommand } from "./commands/validate-command.js";
import type { CliContext } from "./context.js";
import { registerDistributedCommands } from "./distributed/register-distributed-commands.js";
import { registerDoctorCommand } from "./doctor/doctor-command.js";
import { ExitCode } from "./errors/cli-error.js";
import { reportError } from "./errors/report-error.js";
import { registerMcpCommand } from "./mcp/mcp-command.js";

/**
 * The `reelsmith` program, declared with commander. Output goes to the context's streams and
 * `done` receives each command's exit code; nothing here reads `process`.
 *
 * @example
 * const program = createProgram(context, (code) => (exitCode = code));
 * await program.parseAsync(["validate", "pipeline.yaml"], { from: "user" });
 */
export function createProgram(context: CliContext, done: (code: number) => void): Command {
  const program = new Command("reelsmith");
  program
    .description("Run declarative YAML pipelines that turn a story into a video with AI services.")
    .version(cliVersion(), "-V, --version", "print the version")
    .option("--debug", "print stack traces and causes of errors")
    .option(
      "--config <file>",
      "provider profile (else REELSMITH_CONFIG, else reelsmith.config.yaml here or in a parent)",
    )
    .helpOption("-h, --help", "show help")
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError("(add --help for usage)")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      writeErr: (text) => context.stderr.write(text),
    })
    .hook("preAction", (command) => {
      const options = command.optsWithGlobals();
      if (options.debug) context.debug = true;
      if (typeof options.config === "string") context.config = options.config;
    });
  registerRunCommand(program, context, done);
  registerResumeCommand(program, context, done);
  registerBatchCommand(program, context, done);
  registerDecideCommands(program, context, done);
  registerRetakeCommand(program, context, done);
  registerPickCommand(program, context, done);
  registerValidateCommand(program, context, done);
  registerPlanCommand(program, context, done);
  registerModelsCommand(program, context, done);
  registerServeCommand(program, context, done);
  registerInitCommand(program, context, done);
  registerCacheCommand(program, context, done);
  registerDoctorCommand(program, context, done);
  registerReportCommand(program, context, done);
  registerStudioCommand(program, context, done);
  registerDistributedCommands(program, context, done);
  registerMcpCommand(program, context, done);
  program.addHelpText(
    "after",
    `
Exit codes: ${exitCodesHelp()}.
Service: --base-url/--api-key, else REELSMITH_BASE_URL/REELSMITH_API_KEY, else the provider
profile (service.base_url, api_key_env), else OPENAI_BASE_URL/OPENAI_API_KEY (also read from
./.env). With none, \`run\` uses the built-in simulator. The profile (--config, REELSMITH_CONFIG
or reelsmith.config.yaml) declares the service's video models, limits, prices and dialect.`,
  );
  return program;
}

/** What each exit code means, in the words of `--help`. */
const exitCodeMeanings: Record<keyof typeof ExitCode, string> = {
  ok: "success",
  failed: "the pipeline ran and failed (or a gate was rejected)",
  usage:
    "invalid pipeline or usage (or a certain cost over the budget, refused before anything is paid)",
  budget: "stopped at its credit budget (resume --max-credits N)",
  waiting: "waiting at a gate (approve, then resume)",
  interrupted: "interrupted (Ctrl-C, or its output was closed)",
};

/**
 * Every exit code of the CLI with its meaning, as `--help` lists them.
 *
 * @example
 * exitCodesHelp(); // "0 success, 1 the pipeline ran and failed …, 130 interrupted …"
 */
export function exitCodesHelp(): string {
  return (Object.keys(ExitCode) as (keyof typeof ExitCode)[])
    .map((name) => `${ExitCode[name]} ${exitCodeMeanings[name]}`)
    .join(", ");
}

/**
 * Parse `args` (without the node and script paths), run the command, and return its exit
 * code. Errors become one clear message on the context's stderr.
 *
 * @example
 * const code = await executeCli(["validate", "pipeline.yaml"], context);
 */
export async function executeCli(args: string[], context: CliContext): Promise<number> {
  let exitCode = 0;
  const program = createProgram(context, (code) => {
    exitCode = code;
  });
  if (args.includes("--debug")) context.debug = true;
  try {
    if (args.length === 0) {
      program.outputHelp();
      return 0;
    }
    await program.parseAsync(args, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError && error.code === "commander.executeSubCommandAsync") {
      return exitCode;
    }
    return reportError(error, context);
  }
}

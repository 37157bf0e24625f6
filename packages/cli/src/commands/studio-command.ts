import path from "node:path";
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { databaseOption, databaseUrl, openCoordinator } from "../distributed/database-option.js";
import { ExitCode } from "../errors/cli-error.js";
import { parsePort } from "./option-parsers.js";
import { connectionOption } from "./run-command.js";

/** Flags of `reelsmith studio`. */
export interface StudioFlags {
  host?: string;
  port?: number;
  baseUrl?: string;
  apiKey?: string;
  database?: string;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/**
 * `reelsmith studio [RUNS_DIR]`: the review studio on loopback until Ctrl-C. Prints the
 * address with its token (opening it once sets the cookie), and no other address: the bare
 * one answers 401. Its actions go on with each run's
 * own service, by `resume`'s rules (a run begun on the built-in simulator on a new one; any
 * other on its recorded base URL, or `--base-url`); the key never reaches a page. With
 * `--database` (or REELSMITH_DATABASE_URL) the database's runs are listed and acted on too,
 * through the distributed API (their workers go on with them).
 *
 * @example
 * const code = await studioCommand("runs", { port: 4173 }, context);
 */
export async function studioCommand(
  runsDir: string | undefined,
  flags: StudioFlags,
  context: CliContext,
): Promise<number> {
  const host = flags.host ?? "127.0.0.1";
  const database = databaseUrl(flags, context);
  // Loaded on use: the studio, the runner and the service client only for this command.
  const [{ startStudio }, { takeService }, { serviceRunOptions }, { openService }, known] =
    await Promise.all([
      import("@reelsmith/studio"),
      import("./take-service.js"),
      import("./execute-run.js"),
      import("../services/open-service.js"),
      import("../services/known-model-catalogs.js"),
    ]);
  const note = (line: string) => context.stderr.write(`${line}\n`);
  const coordinator = database ? await openCoordinator(database, context) : undefined;
  let studio: Awaited<ReturnType<typeof startStudio>>;
  try {
    studio = await startStudio({
      runsDir: path.resolve(context.cwd, runsDir ?? "runs"),
      host,
      port: flags.port ?? 0,
      ...(coordinator ? { database: coordinator } : {}),
      studioHost: {
        secrets: context.secrets,
        async openService(runDir, kind) {
          // The same service a `reelsmith resume` / `retake` / `pick` of this run would use.
          const target = await takeService(runDir, flags, context, {
            needsService: kind !== "pick",
          });
          const catalogs = await known.knownModelCatalogs({ ...flags, ...target }, context);
          const service = await openService({ ...flags, ...target }, context, note, {
            builtIn: target.builtIn === true,
            requireKey: kind !== "pick",
          });
          return {
            options: {
              ...serviceRunOptions(service, context),
              ...(catalogs ? { catalogs } : {}),
            },
            close: () => service.close(),
          };
        },
      },
    });
  } catch (error) {
    await coordinator?.close();
    throw error;
  }
  if (!LOOPBACK.has(host)) {
    context.stderr.write(
      `warning: the studio listens on ${host}, reachable from other machines; anyone with the token can spend the runs' credits. Prefer the default 127.0.0.1 (and an SSH tunnel).\n`,
    );
  }
  context.stdout.write(
    [
      // Only the address with its token: the bare one answers 401 until the cookie is set.
      `reelsmith studio for ${studio.runsDir}${coordinator ? " and the runs of the database" : ""}`,
      `open: ${studio.loginUrl}`,
      "Press Ctrl-C to stop (sessions the studio started stop gently first).",
      "",
    ].join("\n"),
  );
  await new Promise<void>((resolve) => {
    if (context.signal.aborted) resolve();
    else context.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await studio.close();
  await coordinator?.close();
  context.stdout.write("studio stopped\n");
  return ExitCode.ok;
}

/**
 * Declare `studio` on the program.
 *
 * @example
 * registerStudioCommand(program, context, (code) => (exitCode = code));
 */
export function registerStudioCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("studio")
    .summary("review runs in the browser: follow them live, approve, retake, pick")
    .description(
      "Start the review studio, a local web app: the runs of RUNS_DIR (default ./runs) with their status, spend and estimate; each run's report made live as it runs; and its actions (approve or reject a gate, retake a clip, pick a take, resume, cancel), each priced before it is confirmed. Decisions go to the run's journal, as the CLI's. With --database, the runs made with run --database are listed too, and approved, rejected, cancelled or resumed through the database (their workers go on with them; retake and pick stay local). Listens on 127.0.0.1; every request needs the printed token.",
    )
    .argument("[runs-dir]", "the directory of run directories (default ./runs)")
    .option("--port <n>", "port (0 picks a free one)", parsePort, 0)
    .option(
      "--host <host>",
      "interface to listen on (anything but loopback reaches other machines: a warning is printed)",
      "127.0.0.1",
    )
    .addOption(
      connectionOption(
        "--base-url <url>",
        "service base URL for the runs' sessions (else the one each run used)",
      ),
    )
    .addOption(
      connectionOption("--api-key <key>", "API key (else REELSMITH_API_KEY, OPENAI_API_KEY)"),
    )
    .addOption(databaseOption())
    .addHelpText(
      "after",
      "\nExamples:\n  reelsmith studio\n  reelsmith studio runs --port 4173\n  reelsmith studio runs --database postgres://user:pass@host:5432/reelsmith",
    )
    .action(async (runsDir: string | undefined, flags: StudioFlags) =>
      done(await studioCommand(runsDir, flags, context)),
    );
}

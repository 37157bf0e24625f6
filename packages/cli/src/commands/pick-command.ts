import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { type ClosedOutputChoice, closedOutputOption } from "./closed-output-option.js";
import { connectionOption } from "./run-command.js";
import { parseIndex, refuseDatabase } from "./take-options.js";

/** Flags of `reelsmith pick`. */
export interface PickFlags {
  step: string;
  item?: number;
  take: number;
  baseUrl?: string;
  apiKey?: string;
  json?: boolean;
  database?: string;
  /** `--on-closed-output`: stop (default) or continue when stdout or stderr is closed. */
  onClosedOutput?: ClosedOutputChoice;
}

/**
 * `reelsmith pick RUN_DIR --step ID --item N --take K`: later steps use take K of the item —
 * its kept file is copied back to the pipeline's path, the pick is journaled and what depends
 * on it is rebuilt (ffmpeg runs again; no job is paid for).
 *
 * @example
 * const code = await pickCommand("runs/20260101-100000-storyboard", { step: "clips", item: 1, take: 1 }, context);
 */
export async function pickCommand(
  runDir: string,
  flags: PickFlags,
  context: CliContext,
): Promise<number> {
  refuseDatabase("pick", flags);
  const request = {
    step: flags.step,
    ...(flags.item === undefined ? {} : { index: flags.item }),
    take: flags.take,
  };
  const { executeTake } = await import("./take-service.js");
  return executeTake(runDir, flags, context, { pick: request });
}

/**
 * Declare `pick` on the program.
 *
 * @example
 * registerPickCommand(program, context, (code) => (exitCode = code));
 */
export function registerPickCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("pick")
    .summary("choose which take of an item later steps use")
    .description(
      "Choose which take of an item later steps use (take 1 is what the run first made; `reelsmith retake` makes 2, 3…): its kept file is copied back to the pipeline's path, the pick is journaled, and what depends on it is rebuilt. No job is paid for.",
    )
    .argument("<run-dir>", "the run directory, e.g. runs/20260101-100000-storyboard")
    .requiredOption("--step <id>", "the step of the item")
    .option("--item <n>", "the item of a for_each step, from 0", parseIndex)
    .requiredOption("--take <k>", "the take to use, from 1", parseIndex)
    .option("--database <url>", "not supported: a pick works on a local run directory")
    .addOption(
      connectionOption(
        "--base-url <url>",
        "service base URL (else the environment, else the one the run used)",
      ),
    )
    .addOption(
      connectionOption("--api-key <key>", "API key (else REELSMITH_API_KEY, OPENAI_API_KEY)"),
    )
    .option("--json", "print NDJSON events on stdout")
    .addOption(closedOutputOption())
    .action(async (dir: string, flags: PickFlags) => done(await pickCommand(dir, flags, context)));
}

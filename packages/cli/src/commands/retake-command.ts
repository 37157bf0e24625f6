import { maskSecretValues } from "@reelsmith/core/catalog";
import type { Command } from "commander";
import { collectInput } from "../config/inputs.js";
import type { CliContext } from "../context.js";
import { type ClosedOutputChoice, closedOutputOption } from "./closed-output-option.js";
import { parseInteger, parsePositiveInteger } from "./option-parsers.js";
import { connectionOption } from "./run-command.js";
import { parseIndex, parseParamPairs, refuseDatabase, refuseKey } from "./take-options.js";

/** Flags of `reelsmith retake`. */
export interface RetakeFlags {
  step: string;
  item?: number;
  prompt?: string;
  param?: string[];
  seed?: number;
  baseUrl?: string;
  apiKey?: string;
  maxVideos?: number;
  maxCredits?: number;
  json?: boolean;
  database?: string;
  /** `--on-closed-output`: stop (default) or continue when stdout or stderr is closed. */
  onClosedOutput?: ClosedOutputChoice;
}

/**
 * `reelsmith retake RUN_DIR --step ID --item N [--prompt TEXT] [--param k=v …] [--seed N]`:
 * a new take of one item of a finished, failed or budget-stopped run — one new job, never
 * served by the cache — then what depends on it is rebuilt in the same run directory. The
 * take it replaces is kept beside its file (`clips/scene-1.take-1.mp4`).
 *
 * @example
 * const code = await retakeCommand("runs/20260101-100000-storyboard", { step: "clips", item: 1, prompt: "…" }, context);
 */
export async function retakeCommand(
  runDir: string,
  flags: RetakeFlags,
  context: CliContext,
): Promise<number> {
  refuseDatabase("retake", flags);
  if (flags.prompt !== undefined && maskSecretValues(flags.prompt) !== flags.prompt)
    refuseKey("--prompt");
  const params = parseParamPairs(flags.param ?? []);
  if (flags.seed !== undefined) params.seed = flags.seed;
  const request = {
    step: flags.step,
    ...(flags.item === undefined ? {} : { index: flags.item }),
    ...(flags.prompt === undefined ? {} : { prompt: flags.prompt }),
    ...(Object.keys(params).length === 0 ? {} : { params }),
  };
  const { executeTake } = await import("./take-service.js");
  return executeTake(runDir, flags, context, { retake: request });
}

/**
 * Declare `retake` on the program.
 *
 * @example
 * registerRetakeCommand(program, context, (code) => (exitCode = code));
 */
export function registerRetakeCommand(
  program: Command,
  context: CliContext,
  done: (code: number) => void,
): void {
  program
    .command("retake")
    .summary("make a new take of one item of a run, keeping the others")
    .description(
      "Make a new take of one item of a finished, failed or budget-stopped run (one new, paid job; never served by the cache), optionally with a new prompt or params, then rebuild what depends on it (the joined video, captions, contact sheet) in the same run directory. Earlier takes are kept beside the file (clips/scene-1.take-1.mp4); the pipeline's path holds the new one. A retake stopped in any way goes on with `reelsmith resume` or the same retake, without paying twice.",
    )
    .argument("<run-dir>", "the run directory, e.g. runs/20260101-100000-storyboard")
    .requiredOption("--step <id>", "the step whose item is made again")
    .option("--item <n>", "the item of a for_each step, from 0", parseIndex)
    .option("--prompt <text>", "a new prompt (else the picked take's)")
    .option(
      "--param <key=value>",
      "a param over the picked take's, e.g. negative_prompt=blurry (repeatable; JSON values are read as JSON)",
      collectInput,
      [],
    )
    .option("--seed <n>", "the param `seed` (as --param seed=N)", parseInteger)
    .option("--database <url>", "not supported: a retake works on a local run directory")
    .addOption(
      connectionOption(
        "--base-url <url>",
        "service base URL (else the environment, else the one the run used)",
      ),
    )
    .addOption(
      connectionOption("--api-key <key>", "API key (else REELSMITH_API_KEY, OPENAI_API_KEY)"),
    )
    .option("--max-videos <n>", "video jobs in flight", parsePositiveInteger)
    .option(
      "--max-credits <n>",
      "the run's credit budget from now on (what it spent counts; else the one it started with)",
      parsePositiveInteger,
    )
    .option("--json", "print NDJSON events on stdout")
    .addOption(closedOutputOption())
    .addHelpText(
      "after",
      '\nExamples:\n  reelsmith retake runs/20260101-100000-storyboard --step clips --item 1 --prompt "Scene 1: the fox at dawn, wide shot"\n  reelsmith retake runs/20260101-100000-storyboard --step clips --item 1 --seed 7\n  reelsmith pick runs/20260101-100000-storyboard --step clips --item 1 --take 1',
    )
    .action(async (dir: string, flags: RetakeFlags) =>
      done(await retakeCommand(dir, flags, context)),
    );
}

import { Option } from "commander";

/** What a run does when the reader of its output goes away: stop gently, or go on. */
export type ClosedOutputChoice = "stop" | "continue";

/**
 * `--on-closed-output stop|continue` (run, resume, approve --continue, retake, pick): when
 * stdout or stderr is closed (`… | head -2`, a closed terminal), `stop` (the default) stops the
 * run as the first Ctrl-C does, exit 130; `continue` goes on to the end. Nothing more is
 * written to the closed stream either way.
 *
 * @example
 * command.addOption(closedOutputOption());
 */
export function closedOutputOption(): Option {
  return new Option(
    "--on-closed-output <choice>",
    "when stdout or stderr is closed (| head, a closed terminal): stop as on Ctrl-C (exit 130), or continue to the end",
  )
    .choices(["stop", "continue"])
    .default("stop");
}

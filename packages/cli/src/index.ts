// @reelsmith/cli: the `reelsmith` command as a library (`runMain`, `executeCli`,
// `createProgram`), its exit codes and errors, and the events and result `--json` prints. The
// run notification's signature is checked with `@reelsmith/cli/notify`.
export type { CliContext } from "./context.js";
export type { RunEvent, RunResultView } from "./contracts/run-event.js";
export { CliError, ExitCode, UsageError } from "./errors/cli-error.js";
export { runMain } from "./main.js";
export { createProgram, executeCli } from "./program.js";

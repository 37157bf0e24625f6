/**
 * What an error means for whoever started the work, in one word: the CLI turns it into an
 * exit code and a default hint, the runner into a run's status, without knowing the class.
 *
 * - `usage`: the command line is wrong (a flag, a missing argument). Exit code 2.
 * - `invalid`: the pipeline, its inputs, a run directory or the request is refused before
 *   anything was sent (a certain cost over the budget included). Exit code 2.
 * - `budget`: the credit budget was reached while running; raise it and resume. Exit code 3.
 * - `waiting`: a step waits for a decision from outside the run (an approval). Exit code 4.
 * - `rejected`: a person rejected a gate; the run ends `rejected`. Exit code 1.
 * - `interrupted`: the caller cancelled (Ctrl-C, a signal, an aborted request). Exit code 130.
 * - `failed`: anything else went wrong while working. Exit code 1.
 *
 * @example
 * if (ReelsmithError.isInstance(error) && error.category === "invalid") fixTheInput();
 */
export type ErrorCategory =
  | "usage"
  | "invalid"
  | "budget"
  | "waiting"
  | "rejected"
  | "interrupted"
  | "failed";

/**
 * Every {@link ErrorCategory}, for checking a category read from data (a journal, a worker).
 * @example ERROR_CATEGORIES.includes(data.category)
 */
export const ERROR_CATEGORIES: readonly ErrorCategory[] = [
  "usage",
  "invalid",
  "budget",
  "waiting",
  "rejected",
  "interrupted",
  "failed",
];

/**
 * `value` when it is an {@link ErrorCategory}, else `failed`.
 * @example errorCategoryOf(data.category) // "budget"
 */
export function errorCategoryOf(value: unknown): ErrorCategory {
  return ERROR_CATEGORIES.includes(value as ErrorCategory) ? (value as ErrorCategory) : "failed";
}

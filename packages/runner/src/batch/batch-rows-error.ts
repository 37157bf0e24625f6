import { RunnerError } from "../errors/runner-error.js";

/** One problem with a row of a batch's inputs file: where it is and what is wrong. */
export interface BatchRowProblem {
  /** The inputs file as given. */
  file: string;
  /** 1-based line of the row (of the problem, for a file that cannot be read as rows). */
  line: number;
  /** The field (the pipeline's input) at fault, when one is. */
  field?: string;
  message: string;
}

/**
 * Rows of a batch's inputs file that cannot run: unreadable, an input of the wrong type, an
 * unknown field, two rows with one id. Every problem at once, each as `file:line`; thrown
 * before anything is paid (category `invalid`).
 * @example if (BatchRowsError.isInstance(error)) for (const p of error.problems) console.error(p.line);
 */
export class BatchRowsError extends RunnerError {
  readonly problems: BatchRowProblem[];
  constructor(problems: BatchRowProblem[]) {
    const lines = problems.map(
      (problem) =>
        `${problem.file}:${problem.line}: ${problem.field ? `${problem.field}: ` : ""}${problem.message}`,
    );
    super(
      "batch_rows_invalid",
      problems.length === 1
        ? `a row of the inputs cannot run: ${lines[0]}`
        : `${problems.length} problems with the rows of the inputs:\n${lines.map((line) => `  ${line}`).join("\n")}`,
      {
        category: "invalid",
        hint: "fix those rows (or remove them) and run the batch again; nothing was sent",
      },
    );
    this.problems = problems;
  }
}

import { RunnerError } from "../../errors/runner-error.js";

/** One problem with a given input value. */
export interface InputProblem {
  input: string;
  message: string;
}

/**
 * Inputs that do not fit the pipeline's declarations; lists every problem at once.
 *
 * @example
 * ```ts
 * try { resolveInputs(pipeline, { scenes: "three" }); }
 * catch (error) { if (InputError.isInstance(error)) console.error(error.problems); }
 * ```
 */
export class InputError extends RunnerError {
  readonly problems: InputProblem[];

  constructor(problems: InputProblem[]) {
    super(
      "input_invalid",
      problems.length === 1
        ? `input ${problems[0]?.input}: ${problems[0]?.message}`
        : `${problems.length} problems with the inputs:\n${problems.map((p) => `  - ${p.input}: ${p.message}`).join("\n")}`,
      { category: "invalid" },
    );
    this.problems = problems;
  }
}

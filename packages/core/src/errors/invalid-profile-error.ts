import { ReelsmithError } from "./reelsmith-error.js";

/**
 * A provider profile failed validation. `problems` lists every one, each with a JSON pointer
 * to the offending value (a caller that loaded the YAML maps it to file:line:column).
 *
 * @example
 * ```ts
 * try { parseProfile(document); }
 * catch (error) { if (InvalidProfileError.isInstance(error)) for (const p of error.problems) console.error(p.pointer, p.message); }
 * ```
 */
export class InvalidProfileError extends ReelsmithError {
  static override readonly marker: symbol = Symbol.for("reelsmith.error.InvalidProfileError");
  readonly problems: readonly { pointer: string; message: string; code: string }[];
  constructor(problems: readonly { pointer: string; message: string; code: string }[]) {
    const lines = problems.map((problem) => `  ${problem.pointer || "/"}: ${problem.message}`);
    super(`The provider profile is not valid:\n${lines.join("\n")}`, {
      code: "invalid_profile",
      isRetryable: false,
    });
    this.problems = problems;
  }
}

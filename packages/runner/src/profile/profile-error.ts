import { RunnerError } from "../errors/runner-error.js";
import type { Diagnostic } from "../pipeline/diagnostic.js";

/**
 * A provider profile (`reelsmith.config.yaml`) that cannot be used: unreadable, not YAML, or
 * refused by its schema (a key in the file, an unknown dialect, an unknown field, …). Each
 * problem is a {@link Diagnostic} with the file, line and column, so `formatDiagnostic`
 * prints the line and a caret under it. Nothing was sent.
 *
 * @example
 * ```ts
 * try {
 *   await loadProfile("reelsmith.config.yaml");
 * } catch (error) {
 *   if (ProfileError.isInstance(error)) for (const d of error.diagnostics) console.error(formatDiagnostic(d));
 * }
 * ```
 */
export class ProfileError extends RunnerError {
  /** The profile file, as the caller named it. */
  readonly file: string;
  /** Every problem, in file order. */
  readonly diagnostics: Diagnostic[];
  constructor(file: string, diagnostics: Diagnostic[]) {
    const lines = diagnostics.map(
      (diagnostic) =>
        `${diagnostic.file}:${diagnostic.line}:${diagnostic.column}: ${diagnostic.message}`,
    );
    super(
      "invalid_profile",
      `the provider profile ${file} has ${diagnostics.length === 1 ? "a problem" : `${diagnostics.length} problems`}:\n  ${lines.join("\n  ")}`,
      { category: "invalid" },
    );
    this.file = file;
    this.diagnostics = diagnostics;
  }
}

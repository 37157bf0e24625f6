import { RunnerError } from "../../errors/runner-error.js";
import type { Diagnostic } from "../diagnostic.js";

/**
 * A pipeline file that cannot be read or parsed (missing, too large, binary, bad YAML,
 * not a mapping), or that fails validation (`code` "pipeline_invalid").
 *
 * @example
 * ```ts
 * try { await loadPipeline("p.yaml"); }
 * catch (error) { if (PipelineLoadError.isInstance(error)) error.diagnostics.map(formatDiagnostic); }
 * ```
 */
export class PipelineLoadError extends RunnerError {
  /** Every problem found, with positions. */
  readonly diagnostics: Diagnostic[];
  readonly file: string;

  constructor(
    code: "pipeline_unreadable" | "pipeline_syntax" | "pipeline_invalid",
    file: string,
    diagnostics: Diagnostic[],
  ) {
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === "error");
    const first = errors[0];
    const summary = first ? `${first.file}:${first.line}:${first.column}: ${first.message}` : file;
    super(
      code,
      errors.length > 1 ? `${summary} (and ${errors.length - 1} more problems)` : summary,
      { category: "invalid" },
    );
    this.diagnostics = diagnostics;
    this.file = file;
  }
}

/**
 * One problem found in a pipeline file, pointing at the offending node.
 *
 * @example
 * ```ts
 * const d: Diagnostic = { severity: "error", code: "unknown_step", message: "…", file: "p.yaml", line: 3, column: 7 };
 * ```
 */
export interface Diagnostic {
  severity: "error" | "warning";
  /** Stable identifier of the kind of problem, e.g. "schema", "unknown_step", "cycle". */
  code: string;
  message: string;
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** The text of the offending line. */
  sourceLine?: string;
  hint?: string;
}

/**
 * Render a diagnostic as `file:line:column: error: message`, the source line and a caret
 * under the column, then the hint.
 *
 * @example
 * ```ts
 * formatDiagnostic(d);
 * // p.yaml:3:7: error: unknown step `clip`
 * //     concat: ${{ steps.clip.outputs.*.file }}
 * //             ^
 * //   hint: did you mean `clips`?
 * ```
 */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const lines = [
    `${diagnostic.file}:${diagnostic.line}:${diagnostic.column}: ${diagnostic.severity}: ${diagnostic.message}`,
  ];
  if (diagnostic.sourceLine !== undefined) {
    const source = diagnostic.sourceLine.replace(/\t/g, " ");
    lines.push(`  ${source}`);
    lines.push(`  ${" ".repeat(Math.max(0, Math.min(diagnostic.column - 1, source.length)))}^`);
  }
  if (diagnostic.hint) lines.push(`  hint: ${diagnostic.hint}`);
  return lines.join("\n");
}

/**
 * Sort diagnostics by position, errors before warnings on the same spot.
 *
 * @example
 * ```ts
 * sortDiagnostics(diagnostics).forEach((d) => console.log(formatDiagnostic(d)));
 * ```
 */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      a.line - b.line ||
      a.column - b.column ||
      (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1),
  );
}

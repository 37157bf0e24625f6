import type { Diagnostic } from "./diagnostic.js";

/**
 * An error diagnostic of a pipeline file, at a line and column (1 and 1 when the file as a
 * whole is at fault), with the source line and a hint when known.
 * @example diagnosticAt("p.yaml", "yaml_syntax", "YAML: …", 3, 5, "  - id: x")
 */
export function diagnosticAt(
  file: string,
  code: string,
  message: string,
  line = 1,
  column = 1,
  sourceLine?: string,
  hint?: string,
): Diagnostic {
  return { severity: "error", code, message, file, line, column, sourceLine, hint };
}

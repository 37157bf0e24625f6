import type { Document, LineCounter } from "yaml";
import type { Diagnostic } from "./diagnostic.js";
import { diagnosticAt } from "./diagnostic-at.js";
import { findYamlRepairs } from "./yaml-repairs.js";

/**
 * The YAML problems of a pipeline file's documents, in the order of the text: each told as
 * the one-line change that makes the text readable when one does, else in the parser's words.
 * @example const problems = yamlSyntaxProblems("p.yaml", source, documents, lineCounter);
 */
export function yamlSyntaxProblems(
  path: string,
  source: string,
  documents: readonly Pick<Document, "errors">[],
  lines: LineCounter,
): Diagnostic[] {
  const sourceLine = (line: number) => source.split(/\r?\n/)[line - 1];
  const problems: Diagnostic[] = [];
  const errors = documents.flatMap((document) =>
    document.errors.map((error) => {
      const { line, col } = lines.linePos(error.pos[0]);
      return { code: error.code, message: error.message, line, column: col };
    }),
  );
  // Each problem is told as the one-line change that makes the text readable (a line
  // re-indented, a value quoted), found by trying it; what no change explains stays in the
  // parser's words.
  const { repairs, remaining } =
    errors.length > 0 ? findYamlRepairs(source, errors) : { repairs: [], remaining: [] };
  for (const repair of repairs) {
    problems.push(
      diagnosticAt(
        path,
        `yaml_${repair.kind}`,
        repair.message,
        repair.line,
        repair.column,
        sourceLine(repair.line),
        repair.hint,
      ),
    );
  }
  for (const error of remaining) {
    const first =
      error.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "") ?? error.message;
    const message = /call stack/i.test(first)
      ? "the document is nested too deeply (thousands of levels)"
      : first;
    problems.push(
      diagnosticAt(
        path,
        "yaml_syntax",
        `YAML: ${message}`,
        error.line,
        error.column,
        sourceLine(error.line),
      ),
    );
  }
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return problems;
}

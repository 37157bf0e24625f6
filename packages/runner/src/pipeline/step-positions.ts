import { isMap, isSeq, LineCounter, parseDocument } from "yaml";

/** Where each step is written in a pipeline file (1-based line and column), by step id. */
export type StepPositions = Map<string, { line: number; column: number }>;

/**
 * Where each step begins in the pipeline text: its entry under `steps:` (the `id:` of a block
 * step, the `{` of a flow one), as `validate` places a step's problems. The one answer to
 * "where is this step" for a run's error messages and for the report, so the two always show
 * the same `file:line:column`. Unparsable text gives none.
 *
 * @example
 * stepPositions("steps:\n  - id: a\n    chat: {}\n").get("a"); // { line: 2, column: 5 }
 */
export function stepPositions(source: string | undefined): StepPositions {
  const positions: StepPositions = new Map();
  if (!source) return positions;
  const lineCounter = new LineCounter();
  const document = parseDocument(source, { lineCounter, keepSourceTokens: false });
  const steps = document.get("steps", true);
  if (!isSeq(steps)) return positions;
  for (const step of steps.items) {
    if (!isMap(step)) continue;
    const id = step.get("id");
    const offset = step.range?.[0];
    if (typeof id !== "string" || offset === undefined) continue;
    const { line, col } = lineCounter.linePos(offset);
    positions.set(id, { line, column: col });
  }
  return positions;
}

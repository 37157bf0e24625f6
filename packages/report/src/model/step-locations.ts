import { isMap, isSeq, LineCounter, parseDocument } from "yaml";

/** Where a step is written in the pipeline file (1-based), by step id. */
export type StepLocations = Map<string, { line: number; column: number }>;

/**
 * Finds each step's position in the pipeline text (its kind key, e.g. `video:`, else its
 * `- id:` entry), so an error can be shown as file:line:column. Unparsable text gives none.
 * @example stepLocations("steps:\n  - id: a\n    chat: {}\n").get("a") // { line: 3, column: 5 }
 */
export function stepLocations(source: string | undefined): StepLocations {
  const locations: StepLocations = new Map();
  if (!source) return locations;
  const lineCounter = new LineCounter();
  const document = parseDocument(source, { lineCounter, keepSourceTokens: false });
  const steps = document.get("steps", true);
  if (!isSeq(steps)) return locations;
  for (const step of steps.items) {
    if (!isMap(step)) continue;
    const id = step.get("id");
    if (typeof id !== "string") continue;
    const kindPair = step.items.find((pair) => {
      const key = (pair.key as { value?: unknown } | null)?.value;
      return typeof key === "string" && !COMMON_FIELDS.has(key);
    });
    const node = (kindPair?.key as { range?: [number, number, number] } | null) ?? step;
    const offset = node.range?.[0];
    if (offset === undefined) continue;
    const { line, col } = lineCounter.linePos(offset);
    locations.set(id, { line, column: col });
  }
  return locations;
}

/** Fields every step may have; the one key not among them is the step's kind. */
const COMMON_FIELDS = new Set([
  "id",
  "name",
  "needs",
  "if",
  "for_each",
  "max_parallel",
  "retry",
  "timeout",
  "continue_on_error",
  "cache",
  "env",
]);

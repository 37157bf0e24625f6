import { type Document, isMap, isPair, isScalar, isSeq, type LineCounter } from "yaml";
import { maskSecrets } from "./mask-secrets.js";

/** How secrets are recognised (core's checks, passed in so this module loads without core). */
export interface SecretTests {
  /** A key whose value is a secret (`api_key`, `token`, `credentials`, …). */
  isSecretKey(key: string): boolean;
  /** A value that looks like a key whatever holds it (`sk-…`, `Bearer …`, long random tokens). */
  isSecretValue(value: string): boolean;
  /** A text with every word that looks like a key replaced. */
  maskText(text: string): string;
}

/** Where the secrets of a parsed YAML text are: [start, end) offsets of whole values. */
function secretRanges(documents: readonly Document[], tests: SecretTests): [number, number][] {
  const ranges: [number, number][] = [];
  const visit = (node: unknown): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        const keyRange = (pair.key as { range?: [number, number, number] } | null)?.range;
        if (key !== undefined && tests.isSecretValue(key) && keyRange)
          ranges.push([keyRange[0], keyRange[1]]);
        const valueRange = (pair.value as { range?: [number, number, number] } | null)?.range;
        // Everything under a key-like name is hidden, however deep it nests.
        if (key !== undefined && tests.isSecretKey(key)) {
          if (valueRange) ranges.push([valueRange[0], valueRange[1]]);
          continue;
        }
        visit(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item);
    } else if (isScalar(node) && typeof node.value === "string" && node.range) {
      if (tests.isSecretValue(node.value)) ranges.push([node.range[0], node.range[1]]);
    }
  };
  for (const document of documents) visit(document.contents);
  return ranges;
}

/**
 * The lines of a YAML text as a message may quote them: every value under a key-like name
 * (`api_key`, `token`, `credentials`, at any depth, a nested mapping's lines included) and every
 * value that looks like a key wherever it is (`sk-…`, `Bearer …`) replaced by `<redacted>`.
 * Found on the parsed nodes and their positions; a text YAML could not parse is also masked
 * line by line by name and by shape.
 *
 * @example
 * ```ts
 * const lineText = createSecretMask(source, documents, lineCounter, tests);
 * lineText(3); // "    notes: { deeper: { token: <redacted> } }"
 * ```
 */
export function createSecretMask(
  source: string,
  documents: readonly Document[],
  lines: LineCounter,
  tests: SecretTests,
): (line: number) => string {
  const ranges = secretRanges(documents, tests);
  return (line) => {
    const start = lines.lineStarts[line - 1];
    if (start === undefined) return "";
    const newline = source.indexOf("\n", start);
    const end = newline === -1 ? source.length : newline;
    const overlaps = ranges
      .filter(([from, to]) => from < end && to > start && to > from)
      .map(([from, to]) => [Math.max(from, start), Math.min(to, end)] as [number, number])
      .sort((a, b) => a[0] - b[0]);
    let text = "";
    let at = start;
    for (const [from, to] of overlaps) {
      if (to <= at) continue;
      if (from > at) text += source.slice(at, from);
      // A value's range may end with its line break or trailing spaces: keep the line's end.
      text += "<redacted>";
      at = to;
    }
    text += source.slice(at, end);
    const masked = maskSecrets(text.replace(/\r$/, ""), tests.isSecretKey);
    return tests.maskText(masked);
  };
}

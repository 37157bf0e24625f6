import { Parser } from "yaml";

/** A `[` or `{` with no matching `]` or `}`, and where its closer would go. */
export interface UnclosedFlow {
  opener: "[" | "{";
  closer: "]" | "}";
  /** 1-based line and column of the opener. */
  line: number;
  column: number;
  /** Offset of the opener in the text. */
  openAt: number;
  /** Offset in the text just after the collection's last item: where the closer belongs. */
  closeAt: number;
}

/** Token types that hold no content of a collection's items. */
const FILLER = new Set(["space", "newline", "comment", "comma"]);

interface Token {
  type?: string;
  offset?: number;
  source?: string;
  start?: Token;
  end?: Token[];
  items?: unknown[];
}

/**
 * The flow collections (`[ … ]`, `{ … }`) of a YAML text that are never closed, in the order
 * of the text, read from the parser's concrete syntax tree: YAML's own errors about them name
 * the lines after, where the parser gave up (an indentation or an implicit key).
 *
 * @example
 * unclosedFlowCollections("a: [1, 2\nb: 3\n");
 * // [{ opener: "[", closer: "]", line: 1, column: 4, openAt: 3, closeAt: 8 }]
 */
export function unclosedFlowCollections(source: string): UnclosedFlow[] {
  const found: UnclosedFlow[] = [];
  const lineStarts = [0];
  for (let at = source.indexOf("\n"); at !== -1; at = source.indexOf("\n", at + 1))
    lineStarts.push(at + 1);
  const position = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (lineStarts[low] ?? 0) + 1 };
  };
  // Iterative walk: a deeply nested text must not exhaust the stack.
  const stack: unknown[] = [...new Parser().parse(source)];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    const token = node as Token;
    if (token.type === "flow-collection" && token.start?.offset !== undefined) {
      const closed = (token.end ?? []).some(
        (end) => end.type === "flow-seq-end" || end.type === "flow-map-end",
      );
      if (!closed) {
        const opener = token.start.source === "{" ? "{" : "[";
        const afterOpener = token.start.offset + 1;
        found.push({
          opener,
          closer: opener === "{" ? "}" : "]",
          ...position(token.start.offset),
          openAt: token.start.offset,
          closeAt: Math.max(afterOpener, contentEnd(token.items ?? [])),
        });
      }
    }
    for (const value of Object.values(node))
      if (value && typeof value === "object") stack.push(value);
  }
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The offset just after the last content token under a node (0 when none). */
function contentEnd(node: unknown): number {
  let end = 0;
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== "object") continue;
    const token = current as Token;
    if (
      typeof token.offset === "number" &&
      typeof token.source === "string" &&
      !FILLER.has(token.type ?? "")
    )
      end = Math.max(end, token.offset + token.source.trimEnd().length);
    for (const value of Object.values(current))
      if (value && typeof value === "object") stack.push(value);
  }
  return end;
}

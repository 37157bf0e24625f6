import { type Document, isMap, isPair, isScalar, isSeq, type LineCounter, type Node } from "yaml";

/** A 1-based position plus the 0-based offset it came from. */
export interface SourcePosition {
  line: number;
  column: number;
  offset: number;
}

/**
 * Maps paths inside the parsed document (e.g. ["steps", 2, "video", "seconds"]) back to
 * positions in the YAML text. A path that does not exist resolves to its nearest existing
 * ancestor, so a missing field points at the object that lacks it.
 *
 * @example
 * ```ts
 * const map = new SourceMap(document, lineCounter, source);
 * map.position(["steps", 0, "id"]); // { line: 8, column: 9, offset: 160 }
 * ```
 */
export class SourceMap {
  readonly #document: Document;
  readonly #lines: LineCounter;
  readonly #source: string;

  constructor(document: Document, lines: LineCounter, source: string) {
    this.#document = document;
    this.#lines = lines;
    this.#source = source;
  }

  /** The node at `path` (or its nearest ancestor), and the key node when the last step was a map key. */
  #find(path: readonly (string | number)[]): {
    node: Node | undefined;
    key: Node | undefined;
    exact: boolean;
  } {
    let node: unknown = this.#document.contents;
    let key: Node | undefined;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (item) =>
            isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment),
        );
        if (!pair) return { node: node as Node, key, exact: false };
        key = pair.key as Node;
        if (pair.value === null || pair.value === undefined)
          return { node: key, key, exact: false };
        node = pair.value;
      } else if (isSeq(node) && typeof segment === "number" && node.items[segment] !== undefined) {
        node = node.items[segment];
        key = undefined;
      } else {
        return { node: node as Node | undefined, key, exact: false };
      }
    }
    return { node: node as Node | undefined, key, exact: true };
  }

  #at(offset: number): SourcePosition {
    const { line, col } = this.#lines.linePos(offset);
    return { line, column: col, offset };
  }

  /** Position of the value at `path`, or of the map key naming it when `key` is set. */
  position(path: readonly (string | number)[], options?: { key?: boolean }): SourcePosition {
    const found = this.#find(path);
    const target = options?.key && found.exact && found.key ? found.key : found.node;
    return this.#at(target?.range?.[0] ?? 0);
  }

  /** The raw YAML text of the value at `path` (as written, quotes included), and where it starts. */
  rawText(path: readonly (string | number)[]): { text: string; offset: number } | undefined {
    const found = this.#find(path);
    if (!found.exact || !found.node?.range) return undefined;
    const [start, end] = found.node.range;
    return { text: this.#source.slice(start, end), offset: start };
  }

  /** Position of a 0-based offset. */
  positionOfOffset(offset: number): SourcePosition {
    return this.#at(offset);
  }

  /** Text of a 1-based line, without its line break. */
  lineText(line: number): string {
    const start = this.#lines.lineStarts[line - 1];
    if (start === undefined) return "";
    const end = this.#source.indexOf("\n", start);
    return this.#source.slice(start, end === -1 ? undefined : end).replace(/\r$/, "");
  }
}

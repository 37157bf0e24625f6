/**
 * Where a YAML error comes from a `${{ … }}` expression written without quotes: the column of
 * the first unquoted `${{` on the line, or undefined. YAML reads `{` and `[` as the start of a
 * mapping or list inside `{ … }` and `[ … ]`, and `: ` as a key's end, so an expression there
 * breaks the document in ways its parser describes in its own terms.
 *
 * @example
 * unquotedExpressionColumn('    video: { prompt: ${{ item }} }'); // 22
 * unquotedExpressionColumn('    prompt: "${{ item }}"'); // undefined
 */
export function unquotedExpressionColumn(line: string): number | undefined {
  let quote: string | undefined;
  for (let at = 0; at < line.length; at++) {
    const char = line[at];
    if (quote) {
      if (char === quote) quote = undefined;
      continue;
    }
    if (char === "#" && (at === 0 || line[at - 1] === " ")) return undefined;
    // A quote opens a quoted scalar only where a value starts.
    if ((char === '"' || char === "'") && (at === 0 || /[\s,[{:]/.test(line[at - 1] ?? "")))
      quote = char;
    else if (line.startsWith("${{", at)) return at + 1;
  }
  return undefined;
}

/**
 * The value of a `key: value` line, quoted as YAML wants it, for a hint; the line's whole
 * text after the key (JSON quoting escapes what needs it).
 *
 * @example
 * quotedSuggestion("      prompt: Scene ${{ index }}: ${{ item }}");
 * // 'prompt: "Scene ${{ index }}: ${{ item }}"'
 */
export function quotedSuggestion(line: string): string | undefined {
  const match = /^\s*(?:-\s+)?([A-Za-z_][\w-]*):\s+(.*\S)\s*$/.exec(line);
  if (!match || match[2]?.startsWith("{") || match[2]?.startsWith("[")) return undefined;
  return `${match[1]}: ${JSON.stringify(match[2])}`;
}

/**
 * The line with the value that holds the `${{` at `column` (1-based) quoted, for a trial parse:
 * a block `key: value` line has its whole value quoted, a value inside `{ … }` or `[ … ]` up to
 * the next `,`, `}` or `]` outside an expression. Undefined when there is nothing to quote.
 *
 * @example
 * quotedLine("    video: { model: m, prompt: ${{ item }} }", 32);
 * // '    video: { model: m, prompt: "${{ item }}" }'
 * quotedLine("      prompt: Scene ${{ index }}: ${{ item }}", 21);
 * // '      prompt: "Scene ${{ index }}: ${{ item }}"'
 */
export function quotedLine(line: string, column: number): string | undefined {
  const block = /^(\s*(?:-\s+)?[A-Za-z_][\w-]*:\s+)(.*\S)(\s*)$/.exec(line);
  const at = column - 1;
  if (block?.[1] && block[2] && !/^[{["']/.test(block[2]) && at >= block[1].length)
    return `${block[1]}${JSON.stringify(block[2])}${block[3] ?? ""}`;
  // Inside a flow collection: from the value's start to the next separator outside `${{ }}`.
  let start = at;
  while (start > 0 && !/[,[{]/.test(line[start - 1] ?? "") && !line.startsWith(": ", start - 2))
    start -= 1;
  while (line[start] === " ") start += 1;
  let end = at;
  let depth = 0;
  while (end < line.length) {
    if (line.startsWith("${{", end)) {
      depth += 1;
      end += 3;
      continue;
    }
    if (depth > 0 && line.startsWith("}}", end)) {
      depth -= 1;
      end += 2;
      continue;
    }
    if (depth === 0 && /[,}\]]/.test(line[end] ?? "")) break;
    end += 1;
  }
  const value = line.slice(start, end).trimEnd();
  if (value === "" || /^["']/.test(value)) return undefined;
  return `${line.slice(0, start)}${JSON.stringify(value)}${line.slice(start + value.length)}`;
}

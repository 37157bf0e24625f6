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

/**
 * Break `text` into lines of at most `maxChars` characters (at spaces when possible) and keep
 * at most `maxLines` lines, ending the last kept one with an ellipsis when text was cut.
 *
 * @example
 * wrapText("a storm over the harbour at night", 12, 3); // ["a storm over", "the harbour", "at night"]
 */
export function wrapText(text: string, maxChars: number, maxLines: number): string[] {
  const limit = Math.max(1, Math.floor(maxChars));
  const lines: string[] = [];
  for (const paragraph of text.replace(/\r\n?/g, "\n").split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      let rest = word;
      while (rest.length > limit) {
        if (line) {
          lines.push(line);
          line = "";
        }
        lines.push(rest.slice(0, limit));
        rest = rest.slice(limit);
      }
      if (!line) line = rest;
      else if (line.length + 1 + rest.length <= limit) line += ` ${rest}`;
      else {
        lines.push(line);
        line = rest;
      }
    }
    lines.push(line);
  }
  while (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, Math.max(1, maxLines));
  const last = kept[kept.length - 1] ?? "";
  kept[kept.length - 1] = `${last.slice(0, Math.max(0, limit - 1))}…`;
  return kept;
}

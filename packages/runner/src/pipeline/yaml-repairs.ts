// biome-ignore-all lint/suspicious/noTemplateCurlyInString: messages name ${{ }} expressions
import { LineCounter, parseAllDocuments } from "yaml";
import { type UnclosedFlow, unclosedFlowCollections } from "./unclosed-flow.js";
import { quotedLine, quotedSuggestion, unquotedExpressionColumn } from "./unquoted-expression.js";

/** One error of YAML's parser, at a 1-based position. */
export interface YamlError {
  code: string;
  message: string;
  line: number;
  column: number;
}

/** A one-line change that makes the parser's errors go away, told as the problem it fixes. */
export interface YamlRepair {
  kind: "indentation" | "unquoted_expression" | "unclosed_flow";
  /** 1-based line that is off. */
  line: number;
  /** 1-based column the problem starts at. */
  column: number;
  message: string;
  hint: string;
}

/** Sources larger than this are not searched for repairs (each trial parses the whole text). */
const MAX_REPAIR_SOURCE = 64 * 1024;
/** Most trial parses per document. */
const MAX_TRIALS = 240;
/** Most repairs told; past them the parser's own words are shown. */
const MAX_REPAIRS = 5;
/** Errors a repair may explain: duplicate keys and the like are never a line's indentation. */
const STRUCTURAL = new Set([
  "BAD_INDENT",
  "TAB_AS_INDENT",
  "BLOCK_AS_IMPLICIT_KEY",
  "MULTILINE_IMPLICIT_KEY",
  "MISSING_CHAR",
  "UNEXPECTED_TOKEN",
  "BAD_SCALAR_START",
]);

/**
 * The parser's errors of a YAML text, with 1-based positions.
 *
 * @example
 * yamlErrors("a:\n  b: 1\n c: 2\n")[0]?.code; // "BAD_INDENT"
 */
export function yamlErrors(source: string): YamlError[] {
  const counter = new LineCounter();
  const documents = parseAllDocuments(source, {
    lineCounter: counter,
    prettyErrors: false,
    uniqueKeys: true,
  });
  const list = Array.isArray(documents) ? documents : [];
  return list.flatMap((document) =>
    document.errors.map((error) => {
      const { line, col } = counter.linePos(error.pos[0]);
      return { code: error.code, message: error.message, line, column: col };
    }),
  );
}

const structural = (errors: YamlError[]) => errors.filter((error) => STRUCTURAL.has(error.code));

interface Candidate {
  line: number;
  text: string;
  repair: YamlRepair;
}

const isContent = (text: string | undefined) =>
  text !== undefined && text.trim() !== "" && !text.trim().startsWith("#");
const indentOf = (text: string) => /^[ \t]*/.exec(text)?.[0] ?? "";

/**
 * The smallest set of one-line changes (re-indent a line, quote a value holding `${{ … }}`)
 * after which the text parses, found by trying them and parsing again. An indentation mistake
 * becomes one problem at the line that is off; a quoting hint is given only where quoting is
 * what makes the text readable. Errors no change explains are returned as `remaining`, in the
 * parser's words, from the text with the repairs made (same lines, so the same positions).
 *
 * @example
 * const { repairs } = findYamlRepairs("a:\n  b: 1\n   c: 2\n  d: 3\n", yamlErrors("a:\n  b: 1\n   c: 2\n  d: 3\n"));
 * repairs[0]; // { kind: "indentation", line: 3, column: 4, message: "this line is indented 3 spaces; its sibling at line 2 uses 2", … }
 */
export function findYamlRepairs(
  source: string,
  errors: YamlError[],
): { repairs: YamlRepair[]; remaining: YamlError[] } {
  if (source.length > MAX_REPAIR_SOURCE || structural(errors).length === 0)
    return { repairs: [], remaining: errors };
  const frequency = new Map<string, number>();
  for (const text of source.split("\n"))
    if (isContent(text)) {
      const indent = indentOf(text);
      frequency.set(indent, (frequency.get(indent) ?? 0) + 1);
    }
  // An unclosed `[` or `{` first: the parser blames the lines after it, which no indent fixes.
  const closed = closeFlowCollections(source, errors);
  const lines = closed.source.split("\n");
  const repairs: YamlRepair[] = closed.repairs;
  let current = closed.errors;
  let trials = 0;
  while (structural(current).length > 0 && repairs.length < MAX_REPAIRS && trials < MAX_TRIALS) {
    // Fewest errors left wins; among equals, the change that leaves no `key:` without the
    // block it opens (a dedented first child is the line that is off, not the one after it).
    let best: { candidate: Candidate; errors: YamlError[]; score: number[] } | undefined;
    const window = openerWindow(current);
    for (const candidate of candidatesFor(lines, current, frequency)) {
      if (trials++ >= MAX_TRIALS) break;
      const trial = [...lines];
      trial[candidate.line - 1] = candidate.text;
      const after = yamlErrors(trial.join("\n"));
      const left = structural(after).length;
      if (left >= structural(current).length) continue;
      const score = [left, emptyOpeners(trial, window)];
      if (!best || compareScores(score, best.score) < 0) best = { candidate, errors: after, score };
      if (score.every((value) => value === 0)) break;
    }
    if (!best) break;
    lines[best.candidate.line - 1] = best.candidate.text;
    if (!repairs.some((repair) => repair.line === best.candidate.line))
      repairs.push(best.candidate.repair);
    current = best.errors;
  }
  return { repairs, remaining: current };
}

const compareScores = (a: number[], b: number[]) => {
  for (let at = 0; at < a.length; at++) {
    const difference = (a[at] ?? 0) - (b[at] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
};

/**
 * Each `[` or `{` that is never closed, closed after its last item when that leaves fewer
 * errors: one problem at the opener instead of the parser's words about the lines after it.
 */
function closeFlowCollections(
  source: string,
  errors: YamlError[],
): { source: string; errors: YamlError[]; repairs: YamlRepair[] } {
  const closed: { open: UnclosedFlow; closeLine: number }[] = [];
  let text = source;
  let current = errors;
  const tried = new Set<number>();
  while (closed.length < MAX_REPAIRS && structural(current).length > 0) {
    // The innermost (last) opener first: an outer one closes after it.
    const open = unclosedFlowCollections(text)
      .reverse()
      .find((flow) => !tried.has(flow.openAt));
    if (!open) break;
    tried.add(open.openAt);
    // Spaced as the opener is: `{ a: 1` closes as `{ a: 1 }`, `[1, 2` as `[1, 2]`.
    const spaced = text[open.openAt + 1] === " " ? ` ${open.closer}` : open.closer;
    const trial = `${text.slice(0, open.closeAt)}${spaced}${text.slice(open.closeAt)}`;
    const after = yamlErrors(trial);
    if (structural(after).length >= structural(current).length) continue;
    closed.push({ open, closeLine: trial.slice(0, open.closeAt).split("\n").length });
    text = trial;
    current = after;
    // Closing one may let an outer one close too: each is tried again (offsets before the
    // closer are unchanged).
    tried.clear();
  }
  const closedLines = text.split("\n");
  const repairs = closed.map(({ open, closeLine }): YamlRepair => {
    const what = open.opener === "[" ? "list" : "mapping";
    return {
      kind: "unclosed_flow",
      line: open.line,
      column: open.column,
      message: `the ${what} opened with \`${open.opener}\` at ${open.line}:${open.column} is never closed`,
      hint:
        closeLine === open.line
          ? `close it: ${(closedLines[closeLine - 1] ?? "").trim()}`
          : `close it with \`${open.closer}\` after its last item, on line ${closeLine}`,
    };
  });
  repairs.sort((a, b) => a.line - b.line || a.column - b.column);
  return { source: text, errors: current, repairs };
}

/** The lines whose `key:` openers are weighed: those a repair of these errors may touch. */
function openerWindow(errors: YamlError[]): { from: number; to: number } {
  const first = Math.min(...structural(errors).map((error) => error.line));
  return { from: Math.max(1, first - 9), to: first + 3 };
}

/**
 * How many `key:` lines with nothing after them in the window are followed by a line that is
 * not indented deeper (nor a `- ` item at the same indent, which YAML allows): each is a block
 * opened and left empty, seldom what was meant.
 */
function emptyOpeners(lines: string[], window: { from: number; to: number }): number {
  let count = 0;
  for (let line = window.from; line <= Math.min(window.to, lines.length); line++) {
    const text = lines[line - 1] ?? "";
    if (!isContent(text) || !/:\s*(?:#.*)?$/.test(text)) continue;
    let next = line + 1;
    while (next <= lines.length && !isContent(lines[next - 1])) next += 1;
    const following = lines[next - 1];
    if (following === undefined) continue;
    const width = indentOf(text).length;
    const nextWidth = indentOf(following).length;
    if (nextWidth > width) continue;
    if (nextWidth === width && /^\s*-(\s|$)/.test(following)) continue;
    count += 1;
  }
  return count;
}

/** Changes worth a trial, the likelier first: quoting a value, then re-indenting a line. */
function candidatesFor(
  lines: string[],
  errors: YamlError[],
  frequency: Map<string, number>,
): Candidate[] {
  const candidates: Candidate[] = [];
  const errorLines = [...new Set(structural(errors).map((error) => error.line))];
  for (const line of errorLines) {
    const text = lines[line - 1] ?? "";
    const column = unquotedExpressionColumn(text);
    const quoted = column === undefined ? undefined : quotedLine(text, column);
    if (column === undefined || quoted === undefined) continue;
    candidates.push({
      line,
      text: quoted,
      repair: {
        kind: "unquoted_expression",
        line,
        column,
        message:
          "YAML cannot read this unquoted ${{ … }} expression (inside { } or [ ], or before a `: `)",
        hint:
          quotedSuggestion(text) === undefined
            ? `quote the value: ${quoted.trim()}`
            : `quote the whole value: ${quoted.trim()}`,
      },
    });
  }
  const first = Math.min(...errorLines);
  // Every indent the file uses, the commonest first: a dedented list item's own indent may
  // appear only far from it (its list's next item).
  const fileIndents = [...frequency.entries()]
    .filter(([indent]) => !indent.includes("\t"))
    .sort((a, b) => b[1] - a[1])
    .map(([indent]) => indent.length);
  const indentCandidates: (Candidate & { rank: number[] })[] = [];
  for (let line = Math.max(1, first - 8); line <= Math.min(lines.length, first + 2); line++) {
    const text = lines[line - 1] ?? "";
    if (!isContent(text)) continue;
    const indent = indentOf(text);
    const hasTab = indent.includes("\t");
    const widths = [...new Set([...nearbyIndents(lines, line), ...fileIndents])];
    for (const [order, width] of widths.entries()) {
      if (width === indent.length && !hasTab) continue;
      const sibling = siblingOf(lines, line, width);
      const what = hasTab
        ? "this line is indented with a tab; YAML indents with spaces only"
        : `this line is indented ${indent.length} space${indent.length === 1 ? "" : "s"}`;
      const siblings =
        sibling === undefined
          ? `the lines around it suggest ${width}`
          : `its sibling at line ${sibling} uses ${width}`;
      indentCandidates.push({
        line,
        text: " ".repeat(width) + text.slice(indent.length),
        rank: [hasTab ? 0 : 1, frequency.get(indent) ?? 0, Math.abs(line - first), order],
        repair: {
          kind: "indentation",
          line,
          column: indent.length + 1,
          message: `${what}; ${siblings}`,
          hint: `indent it by ${width} space${width === 1 ? "" : "s"}${sibling === undefined ? "" : `, as line ${sibling}`}`,
        },
      });
    }
  }
  indentCandidates.sort((a, b) => {
    for (let at = 0; at < a.rank.length; at++) {
      const difference = (a.rank[at] ?? 0) - (b.rank[at] ?? 0);
      if (difference !== 0) return difference;
    }
    return 0;
  });
  return [...candidates, ...indentCandidates];
}

/**
 * Indent widths a line could mean, the likelier first: the content lines just above and below,
 * then each enclosing level above it (so a dedented list item finds its list).
 */
function nearbyIndents(lines: string[], line: number): number[] {
  const width = (at: number) => indentOf(lines[at - 1] ?? "").replace(/\t/g, " ").length;
  const near: number[] = [];
  for (const step of [-1, 1]) {
    let seen = 0;
    for (let at = line + step; at >= 1 && at <= lines.length && seen < 3; at += step) {
      if (!isContent(lines[at - 1])) continue;
      seen += 1;
      near.push(at);
    }
  }
  near.sort((a, b) => Math.abs(a - line) - Math.abs(b - line) || a - b);
  // A list item's mapping starts after its dash: `  - id: a` holds keys at column 4.
  const widths = near.flatMap((at) => {
    const content = itemContentWidth(lines[at - 1] ?? "");
    return content === undefined ? [width(at)] : [content, width(at)];
  });
  let level = Number.POSITIVE_INFINITY;
  for (let at = line - 1; at >= 1 && level > 0; at--) {
    if (!isContent(lines[at - 1]) || width(at) >= level) continue;
    level = width(at);
    widths.push(level);
  }
  return widths;
}

/** Where the mapping of a `- key: value` line starts (its key's column, 0-based), or undefined. */
function itemContentWidth(text: string): number | undefined {
  const match = /^([ \t]*)(-[ ]+)(?=[^\s#])/.exec(text);
  return match ? (match[1] ?? "").replace(/\t/g, " ").length + (match[2] ?? "").length : undefined;
}

/** The nearest content line indented `width` spaces in the same block, before the line first. */
function siblingOf(lines: string[], line: number, width: number): number | undefined {
  for (const step of [-1, 1]) {
    for (let at = line + step; at >= 1 && at <= lines.length; at += step) {
      const text = lines[at - 1];
      if (!isContent(text)) continue;
      const indent = indentOf(text ?? "").length;
      const tabbed = indentOf(text ?? "").includes("\t");
      if (!tabbed && (indent === width || itemContentWidth(text ?? "") === width)) return at;
      if (indent < width) break;
    }
  }
  return undefined;
}

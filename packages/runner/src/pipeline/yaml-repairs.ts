// biome-ignore-all lint/suspicious/noTemplateCurlyInString: messages name ${{ }} expressions
import { LineCounter, parseAllDocuments } from "yaml";
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
  kind: "indentation" | "unquoted_expression";
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
  const lines = source.split("\n");
  const frequency = new Map<string, number>();
  for (const text of lines)
    if (isContent(text)) {
      const indent = indentOf(text);
      frequency.set(indent, (frequency.get(indent) ?? 0) + 1);
    }
  const repairs: YamlRepair[] = [];
  let current = errors;
  let trials = 0;
  while (structural(current).length > 0 && repairs.length < MAX_REPAIRS && trials < MAX_TRIALS) {
    let best: { candidate: Candidate; errors: YamlError[] } | undefined;
    for (const candidate of candidatesFor(lines, current, frequency)) {
      if (trials++ >= MAX_TRIALS) break;
      const trial = [...lines];
      trial[candidate.line - 1] = candidate.text;
      const after = yamlErrors(trial.join("\n"));
      if (structural(after).length >= structural(current).length) continue;
      if (!best || structural(after).length < structural(best.errors).length)
        best = { candidate, errors: after };
      if (structural(after).length === 0) break;
    }
    if (!best) break;
    lines[best.candidate.line - 1] = best.candidate.text;
    if (!repairs.some((repair) => repair.line === best.candidate.line))
      repairs.push(best.candidate.repair);
    current = best.errors;
  }
  return { repairs, remaining: current };
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
  const indentCandidates: (Candidate & { rank: number[] })[] = [];
  for (let line = Math.max(1, first - 8); line <= Math.min(lines.length, first + 2); line++) {
    const text = lines[line - 1] ?? "";
    if (!isContent(text)) continue;
    const indent = indentOf(text);
    const hasTab = indent.includes("\t");
    const widths = [...new Set(nearbyIndents(lines, line))];
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

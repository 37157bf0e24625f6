import { describe, expect, it } from "vitest";
import { unclosedFlowCollections } from "./unclosed-flow.js";
import { findYamlRepairs, yamlErrors } from "./yaml-repairs.js";

const repairsOf = (source: string) => findYamlRepairs(source, yamlErrors(source));

describe("YAML repairs: the line that is off", () => {
  it("blames a key's dedented first child, not the child after it that the dedent made look wrong", () => {
    // `defaults:` followed by `chat:` at its own indent parses (defaults is empty), so the
    // parser's error is at `video:`; re-indenting `video:` would also parse, but leave
    // `defaults:` opening nothing.
    const source = "name: t\ndefaults:\nchat: { model: m }\n  video: { model: v }\nsteps: []\n";
    const { repairs, remaining } = repairsOf(source);
    expect(remaining).toEqual([]);
    expect(repairs).toEqual([
      expect.objectContaining({
        kind: "indentation",
        line: 3,
        column: 1,
        message: "this line is indented 0 spaces; its sibling at line 4 uses 2",
        hint: "indent it by 2 spaces, as line 4",
      }),
    ]);
  });

  it("finds a list item's indent from the list's other items, however far below", () => {
    const filler = Array.from({ length: 12 }, (_, at) => `      line${at}: x`).join("\n");
    const source = `name: t\nsteps:\n- id: a\n    chat:\n${filler}\n  - id: b\n    chat: {}\n`;
    const { repairs, remaining } = repairsOf(source);
    expect(remaining).toEqual([]);
    expect(repairs).toEqual([
      expect.objectContaining({ line: 3, column: 1, hint: "indent it by 2 spaces, as line 17" }),
    ]);
  });
});

describe("YAML repairs: an unclosed [ or {", () => {
  it("finds each opener that is never closed and where its closer belongs", () => {
    expect(unclosedFlowCollections("a: [1, 2\nb: 3\n")).toEqual([
      { opener: "[", closer: "]", line: 1, column: 4, openAt: 3, closeAt: 8 },
    ]);
    expect(unclosedFlowCollections("a: [1, [2]]\nb: { c: 1 }\n")).toEqual([]);
  });

  it("is one problem at the opener, closed after its last item even on a later line", () => {
    const source = "a:\n  x: { p: 1,\n    q: 2\n  y: 3\n";
    const { repairs, remaining } = repairsOf(source);
    expect(remaining).toEqual([]);
    expect(repairs).toEqual([
      {
        kind: "unclosed_flow",
        line: 2,
        column: 6,
        message: "the mapping opened with `{` at 2:6 is never closed",
        hint: "close it with `}` after its last item, on line 3",
      },
    ]);
  });

  it("closes nested openers innermost first, each told with the line as it would read", () => {
    const { repairs, remaining } = repairsOf("name: t\nsteps: [ { id: a, chat: { prompt: hi }\n");
    expect(remaining).toEqual([]);
    expect(repairs.map((repair) => [repair.line, repair.column, repair.hint])).toEqual([
      [2, 8, "close it: steps: [ { id: a, chat: { prompt: hi } } ]"],
      [2, 10, "close it: steps: [ { id: a, chat: { prompt: hi } } ]"],
    ]);
  });

  it("keeps the parser's words when closing the opener does not help", () => {
    const source = 'a:\n  b: { p: "open\n';
    const { repairs, remaining } = repairsOf(source);
    expect(repairs).toEqual([]);
    expect(remaining.map((error) => error.code)).toContain("MISSING_CHAR");
  });
});

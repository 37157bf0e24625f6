import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contentId, readRows } from "./read-rows.js";

const dir = mkdtempSync(join(tmpdir(), "reelsmith-rows-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("readRows", () => {
  it("refuses an inputs file that does not exist by its name, as invalid input", async () => {
    await expect(readRows(join(dir, "missing.csv"), "missing.csv")).rejects.toMatchObject({
      code: "batch_inputs_unreadable",
      category: "invalid",
      message: "cannot read the inputs file missing.csv: it does not exist",
    });
  });
  it("names each CSV row by the line it starts on, a quoted value spanning lines included", async () => {
    const path = file("a.csv", 'story,scenes\n"one",1\n\n"two\nlines",2\n"three",\n');
    const { rows, problems } = await readRows(path, "a.csv");
    expect(problems).toEqual([]);
    expect(rows.map((row) => [row.line, row.fields])).toEqual([
      [2, { story: "one", scenes: "1" }],
      [4, { story: "two\nlines", scenes: "2" }],
      // An empty cell is left out: the input's default applies.
      [6, { story: "three" }],
    ]);
  });

  it("gives a row the same id from its content in any key order, or its own id column", async () => {
    expect(contentId({ a: 1, b: "x" })).toBe(contentId({ b: "x", a: 1 }));
    expect(contentId({ a: 1 })).not.toBe(contentId({ a: 2 }));
    const path = file("b.jsonl", '{"id":"first","story":"s"}\n{"story":"s"}\n');
    const { rows } = await readRows(path);
    expect(rows.map((row) => row.id)).toEqual(["first", contentId({ story: "s" })]);
    expect(rows[0]?.fields).toEqual({ story: "s" });
  });

  it("reports every bad row by line: wrong field count, bad JSON, a repeated row, a bad id", async () => {
    const csv = await readRows(file("c.csv", 'story,scenes\n"a",1\n"b",1,extra\n"a",1\n'), "c.csv");
    expect(csv.rows).toHaveLength(1);
    expect(csv.problems.map((p) => [p.line, p.field, p.message])).toEqual([
      [3, undefined, expect.stringMatching(/3 fields where the header line names 2/)],
      [4, "id", expect.stringMatching(/the same id .* as the row at line 2/)],
    ]);
    const jsonl = await readRows(
      file("d.jsonl", '{"story":"a"}\n{nope\n[1]\n{"id":"../x"}\n'),
      "d.jsonl",
    );
    expect(jsonl.problems.map((p) => [p.line, p.field])).toEqual([
      [2, undefined],
      [3, undefined],
      [4, "id"],
    ]);
  });

  it("reads a YAML list of rows with their lines", async () => {
    const { rows, problems } = await readRows(
      file("e.yaml", "- story: a\n  scenes: 1\n- story: b\n- just text\n"),
      "e.yaml",
    );
    expect(rows.map((row) => [row.line, row.fields])).toEqual([
      [1, { story: "a", scenes: 1 }],
      [3, { story: "b" }],
    ]);
    expect(problems.map((p) => p.line)).toEqual([4]);
  });
});

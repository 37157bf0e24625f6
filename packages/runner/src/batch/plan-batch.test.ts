import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadPipeline } from "../pipeline/validate-pipeline.js";
import { BatchRowsError } from "./batch-rows-error.js";
import { planRows } from "./plan-batch.js";

const STORYBOARD = fileURLToPath(
  new URL("../../../../examples/storyboard/pipeline.yaml", import.meta.url),
);
const dir = mkdtempSync(join(tmpdir(), "reelsmith-plan-rows-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("planRows", () => {
  it("names every bad row by line and field, all at once", async () => {
    const pipeline = await loadPipeline(STORYBOARD);
    const rows = file("bad.csv", 'story,scenes,colour\n"a",1,\n"b",two,\n"c",1,red\n');
    const error = await planRows(pipeline, rows, { shown: "bad.csv" }).catch((e: unknown) => e);
    expect(BatchRowsError.isInstance(error)).toBe(true);
    const problems = (error as BatchRowsError).problems;
    expect(problems.map((p) => [p.line, p.field])).toEqual([
      [3, "scenes"],
      [4, "colour"],
    ]);
    expect((error as BatchRowsError).message).toMatch(/bad\.csv:3: scenes: expected an integer/);
    expect((error as BatchRowsError).category).toBe("invalid");
  });

  it("gives each good row its inputs, typed, and refuses a file without rows", async () => {
    const pipeline = await loadPipeline(STORYBOARD);
    const { rows } = await planRows(pipeline, file("ok.jsonl", '{"id":"one","scenes":"2"}\n'));
    expect(rows[0]).toMatchObject({ id: "one", line: 1, inputs: { scenes: 2 } });
    const empty = await planRows(pipeline, file("empty.csv", "story,scenes\n")).catch((e) => e);
    expect(String((empty as Error).message)).toMatch(/no rows/);
  });
});

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { videoModels } from "@reelsmith/simulator/catalog";
import { describe, expect, it } from "vitest";
import { loadPipeline } from "../pipeline/validate-pipeline.js";
import { BatchRowsError } from "./batch-rows-error.js";
import { planRows, rowUpperBound } from "./plan-batch.js";

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

describe("rowUpperBound", () => {
  it("is the certain part plus the most each uncertain step can cost", async () => {
    // Between 1 and 3 scenes: the clips' count is known only as a range.
    const source = (await readFile(STORYBOARD, "utf8"))
      .replace("minItems: ${{ inputs.scenes }}", "minItems: 1")
      .replace("maxItems: ${{ inputs.scenes }}", "maxItems: 3");
    const pipeline = await loadPipeline(file("ranged.yaml", source));
    const { rows } = await planRows(pipeline, file("one.jsonl", '{"id":"one"}\n'), {
      catalogs: { video_models: videoModels },
    });
    const estimate = (rows[0] as (typeof rows)[number]).estimate;
    expect(estimate.complete).toBe(false);
    const perClip = estimate.steps.clips?.perUnit as number;
    expect(perClip).toBeGreaterThan(0);
    // The certain part holds one clip; the bound, three.
    expect(rowUpperBound(estimate)).toBe(estimate.credits + 2 * perClip);
  });

  it("is the estimate when it is complete, and unknown when a paid step has no bound", () => {
    expect(rowUpperBound({ credits: 9, complete: true, steps: { a: { credits: 9 } } })).toBe(9);
    expect(
      rowUpperBound({
        credits: 2,
        complete: false,
        steps: { chat: { credits: 2 }, clips: { perUnit: 4, unitsAtLeast: 0 } },
      }),
    ).toBeUndefined();
    expect(
      rowUpperBound({
        credits: 5,
        complete: false,
        steps: { chat: { credits: 5 }, clips: { perUnit: 4, creditsAtMost: 12 } },
      }),
    ).toBe(17);
  });
});

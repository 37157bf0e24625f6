import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { runPipeline } from "../src/index.js";

describe("a for_each that gives no list at run time", () => {
  it("fails its step at the line of its for_each, before any unit runs", async () => {
    const root = mkdtempSync(join(tmpdir(), "reelsmith-for-each-"));
    const file = join(root, "each.yaml");
    writeFileSync(
      file,
      [
        "name: each",
        "inputs:",
        "  scenes: { type: object, default: { list: [a, b] } }",
        "steps:",
        "  - id: cuts",
        "    for_each: ${{ inputs.scenes.missing }}",
        "    ffmpeg:",
        "      thumbnail: ${{ item }}",
        "      output: thumbs/${{ index }}.jpg",
        "",
      ].join("\n"),
    );
    const result = await runPipeline(file, { runsRoot: join(root, "runs"), cache: false });
    expect(result.status).toBe("failed");
    const inside = relative(process.cwd(), file);
    const shown = inside.startsWith("..") ? file : inside;
    expect(result.error).toMatchObject({
      code: "step_failed",
      step: "cuts",
      // The for_each's own line, not the step's (`- id: cuts` is line 5).
      location: `${shown}:6:15`,
    });
    expect(result.error?.message).toMatch(/for_each must give an array, got null/);
  });
});

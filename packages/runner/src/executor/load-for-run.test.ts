import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadForRun } from "./load-for-run.js";

const text =
  "name: film\nsteps:\n  - id: hello\n    chat:\n      model: reel-chat-1\n      prompt: hi\n";

function file(name: string, source: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "reelsmith-load-")), name);
  writeFileSync(path, source);
  return path;
}

describe("loadForRun: one pipeline type, validated or not", () => {
  it("gives an unvalidated pipeline (a take's, checked later) its positions too", async () => {
    const path = file("film.yaml", text);
    const loaded = await loadForRun(path, { validate: false });
    expect(loaded).toMatchObject({ path, source: text, spec: { name: "film" } });
    expect(loaded.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(loaded.positionOf(["steps", 0, "chat", "prompt"])).toEqual({ line: 6, column: 15 });
    const validated = await loadForRun(path, { validate: true });
    expect(validated.hash).toBe(loaded.hash);
    expect(validated.positionOf(["steps", 0, "chat", "prompt"])).toEqual({ line: 6, column: 15 });
  });

  it("hands a loaded pipeline back as it is", async () => {
    const loaded = await loadForRun(file("film.yaml", text), { validate: false });
    expect(await loadForRun(loaded, { validate: true })).toBe(loaded);
  });

  it("refuses, unvalidated, a mapping without a steps list, naming the file", async () => {
    const path = file("notes.yaml", "name: notes\n");
    await expect(loadForRun(path, { validate: false })).rejects.toThrow(
      `${path} is not a pipeline: expected a mapping with a \`steps\` list`,
    );
  });
});

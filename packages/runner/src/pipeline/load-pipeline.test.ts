// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "./diagnostic.js";
import { PipelineLoadError } from "./errors/pipeline-load-error.js";
import { MAX_PIPELINE_BYTES, objectSource } from "./load-pipeline.js";
import { loadPipeline, validatePipeline } from "./validate-pipeline.js";

const dir = mkdtempSync(join(tmpdir(), "reelsmith-load-"));
const minimal = "name: ok\nsteps:\n  - id: a\n    chat: { model: reel-chat-1, prompt: hi }\n";

async function loadError(input: Parameters<typeof loadPipeline>[0]): Promise<PipelineLoadError> {
  try {
    await loadPipeline(input);
  } catch (error) {
    expect(error).toBeInstanceOf(PipelineLoadError);
    return error as PipelineLoadError;
  }
  throw new Error("expected loadPipeline to fail");
}

describe("loadPipeline", () => {
  it("loads a file with its hash and positions", async () => {
    const file = join(dir, "ok.yaml");
    writeFileSync(file, minimal);
    const pipeline = await loadPipeline(file);
    expect(pipeline.path).toBe(file);
    expect(pipeline.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(pipeline.spec.steps[0]?.id).toBe("a");
    expect(pipeline.positionOf(["steps", 0, "chat", "prompt"])).toEqual({ line: 4, column: 41 });
    expect(pipeline.positionOf(["steps", 0, "chat", "missing"])).toEqual({ line: 4, column: 11 });
  });

  it("loads inline text", async () => {
    const pipeline = await loadPipeline({ source: minimal, path: "<inline>" });
    expect(pipeline.path).toBe("<inline>");
  });

  it("refuses a missing file, a huge file, binary junk", async () => {
    expect((await loadError(join(dir, "nope.yaml"))).message).toContain("no such file");
    const huge = join(dir, "huge.yaml");
    writeFileSync(huge, `${minimal}# ${"x".repeat(MAX_PIPELINE_BYTES)}\n`);
    const tooLarge = await loadError(huge);
    expect(tooLarge.code).toBe("pipeline_unreadable");
    expect(tooLarge.message).toContain("the limit is 1048576 bytes");
    const junk = join(dir, "junk.yaml");
    writeFileSync(
      junk,
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
    );
    expect((await loadError(junk)).message).toContain(
      "not a YAML pipeline: the file contains binary data",
    );
    const latin1 = join(dir, "latin1.yaml");
    writeFileSync(latin1, Buffer.from("name: caf\xe9\n", "latin1"));
    expect((await loadError(latin1)).message).toContain("not UTF-8");
  });

  it("refuses documents that are not one mapping", async () => {
    expect((await loadError({ source: "- a\n- b\n", path: "<inline>" })).message).toContain(
      "found a list",
    );
    expect((await loadError({ source: "just text\n", path: "<inline>" })).message).toContain(
      "found a single value",
    );
    expect((await loadError({ source: "", path: "<inline>" })).message).toContain(
      "found an empty document",
    );
    expect(
      (await loadError({ source: `${minimal}---\n${minimal}`, path: "<inline>" })).message,
    ).toContain("one YAML document");
  });

  it("refuses alias bombs", async () => {
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x]",
      "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
      "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
      "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
    ].join("\n");
    const error = await loadError({ source: `${minimal}${bomb}\n`, path: "<inline>" });
    expect(error.code).toBe("pipeline_syntax");
  });

  it("reports duplicate keys with their position", async () => {
    const { diagnostics } = await validatePipeline({
      source: `${minimal}name: again\n`,
      path: "p.yaml",
    });
    expect(diagnostics[0]).toMatchObject({ line: 5, column: 1, code: "yaml_syntax" });
    expect(diagnostics[0]?.message).toContain("unique");
  });

  it("keeps prototype keys as plain data and changes nothing", async () => {
    const source = `${minimal}outputs:\n  constructor: x\n  __proto__: { polluted: true }\n`;
    const { diagnostics } = await validatePipeline({ source, path: "<inline>" });
    expect(diagnostics.map((d) => d.message)).toEqual([
      "`constructor` is not a valid name",
      "`__proto__` is not a valid name",
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("throws PipelineLoadError with every diagnostic for an invalid pipeline", async () => {
    const error = await loadError({
      source: "name: x\nsteps:\n  - id: a\n  - id: a\n",
      path: "p.yaml",
    });
    expect(error.code).toBe("pipeline_invalid");
    expect(error.diagnostics.length).toBe(3);
    expect(error.message).toMatch(/p\.yaml:3:5: .* \(and 2 more problems\)$/);
  });
});

describe("formatDiagnostic", () => {
  it("shows file:line:column, the line and a caret under the column, then the hint", async () => {
    const source =
      "name: x\nsteps:\n  - id: a\n    chat: { model: reel-chat-1, prompt: hi, temprature: 1 }\n";
    const { diagnostics } = await validatePipeline({ source, path: "p.yaml" });
    expect(diagnostics.map(formatDiagnostic)).toEqual([
      [
        "p.yaml:4:45: error: unknown field `temprature` in `chat`",
        "      chat: { model: reel-chat-1, prompt: hi, temprature: 1 }",
        "                                              ^",
        "  hint: did you mean `temperature`?",
      ].join("\n"),
    ]);
  });
});

describe("objectSource", () => {
  const valid = {
    name: "inline",
    steps: [{ id: "a", chat: { model: "reel-chat-1", prompt: "hi" } }],
  };

  it("loads a pipeline object without building its YAML positions", async () => {
    const loaded = await loadPipeline(objectSource(valid));
    expect(loaded.spec).toEqual(valid);
    expect(loaded.path).toBe("<inline>");
    // Positions are still there when asked for (built on demand).
    expect(loaded.positionOf(["steps", 0, "chat", "prompt"])).toEqual({ line: 8, column: 15 });
  });

  it("reports the same diagnostics, with positions, as the same text read as YAML", async () => {
    const invalid = {
      name: "inline",
      steps: [
        { id: "a", chat: { model: "reel-chat-1", prompt: "hi", temprature: 1 } },
        { id: "a", needs: ["nowhere"], chat: { model: "reel-chat-1", prompt: "${{ steps.x }}" } },
      ],
    };
    const input = objectSource(invalid);
    const fast = await validatePipeline(input);
    const yaml = await validatePipeline({ source: input.source, path: "<inline>" });
    expect(fast.diagnostics.length).toBeGreaterThanOrEqual(3);
    expect(fast.diagnostics).toEqual(yaml.diagnostics);
  });
});

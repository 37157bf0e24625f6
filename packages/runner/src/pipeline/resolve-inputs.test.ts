import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "./errors/input-error.js";
import { resolveInputs } from "./resolve-inputs.js";
import { loadPipeline } from "./validate-pipeline.js";

const dir = mkdtempSync(join(tmpdir(), "reelsmith-inputs-"));
mkdirSync(join(dir, "media"));
writeFileSync(join(dir, "media", "music.mp3"), "not really audio");
const path = join(dir, "p.yaml");
writeFileSync(
  path,
  `name: inputs
inputs:
  story: { type: string, default: "A fox" }
  scenes: { type: integer, default: 3 }
  ratio: { type: number, required: false }
  loud: { type: boolean, default: false }
  tags: { type: array, default: [a] }
  extra: { type: object, required: false }
  music: { type: file, default: media/music.mp3 }
  topic: { type: string }
steps:
  - id: a
    chat: { model: reel-chat-1, prompt: "\${{ inputs.story }}" }
`,
);

describe("resolveInputs", () => {
  it("applies defaults, coerces CLI strings and resolves files next to the pipeline", async () => {
    const pipeline = await loadPipeline(path);
    const inputs = resolveInputs(pipeline, {
      topic: "rivers",
      scenes: "5",
      ratio: "0.5",
      loud: "yes",
      tags: '["x","y"]',
      extra: '{"k":1}',
    });
    expect(inputs).toEqual({
      story: "A fox",
      scenes: 5,
      ratio: 0.5,
      loud: true,
      tags: ["x", "y"],
      extra: { k: 1 },
      music: join(dir, "media", "music.mp3"),
      topic: "rivers",
    });
  });

  it("leaves optional inputs without a value out", async () => {
    const inputs = resolveInputs(await loadPipeline(path), { topic: "t" });
    expect(Object.keys(inputs).sort()).toEqual([
      "loud",
      "music",
      "scenes",
      "story",
      "tags",
      "topic",
    ]);
  });

  it("lists every problem at once", async () => {
    const pipeline = await loadPipeline(path);
    let caught: unknown;
    try {
      resolveInputs(pipeline, {
        scenes: "three",
        loud: "maybe",
        tags: "{",
        music: "nope.mp3",
        topics: "x",
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputError);
    const problems = (caught as InputError).problems;
    expect(problems.map((problem) => problem.input)).toEqual([
      "topics",
      "scenes",
      "loud",
      "tags",
      "music",
      "topic",
    ]);
    expect(problems[0]?.message).toContain("did you mean `topic`?");
    expect(problems[1]?.message).toBe('expected an integer, got string "three"');
    expect(problems[4]?.message).toContain("file not found");
    // A relative path given on the command line is read from the pipeline's folder: say so.
    expect(problems[4]?.message).toContain(
      `a \`file\` input is read relative to the pipeline's folder, ${dirname(path)}`,
    );
    expect(problems[5]?.message).toBe("required (string)");
    expect((caught as InputError).code).toBe("input_invalid");
  });

  it("ignores prototype tricks in the given values", async () => {
    const given = JSON.parse('{"__proto__": {"polluted": true}, "topic": "t"}');
    expect(() => resolveInputs(Object.freeze(pipelineStub()), given)).toThrow(/__proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

function pipelineStub() {
  return {
    path: path,
    source: "",
    hash: "",
    spec: { name: "x", inputs: { topic: { type: "string" as const } }, steps: [] },
    positionOf: () => ({ line: 1, column: 1 }),
  };
}

describe("a number input's minimum and maximum", () => {
  it("refuses a value outside them, given or by default, and takes one inside", async () => {
    const bounded = join(dir, "bounded.yaml");
    writeFileSync(
      bounded,
      [
        "name: bounded",
        "inputs:",
        "  scenes: { type: integer, default: 4, minimum: 1, maximum: 12 }",
        "  speed: { type: number, default: 1, minimum: 0.5 }",
        "steps:",
        "  - id: a",
        '    chat: { model: reel-chat-1, prompt: "${{ inputs.scenes }} ${{ inputs.speed }}" }',
        "",
      ].join("\n"),
    );
    const pipeline = await loadPipeline(bounded);
    expect(resolveInputs(pipeline, { scenes: "12", speed: "0.5" })).toMatchObject({
      scenes: 12,
      speed: 0.5,
    });
    let caught: unknown;
    try {
      resolveInputs(pipeline, { scenes: "0", speed: "0.1" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect((caught as InputError).problems).toEqual([
      { input: "scenes", message: "expected an integer from 1 to 12, got 0" },
      { input: "speed", message: "expected a number of at least 0.5, got 0.1" },
    ]);
  });
});

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipeline expressions are written `${{ … }}` in plain strings
import { describe, expect, it } from "vitest";
import { type ExpressionContext, evaluateCondition, evaluateValue } from "./evaluate.js";
import { ExpressionError } from "./expression-error.js";

const context: ExpressionContext = {
  inputs: { scenes: 3, story: "A fox", tags: ["a", "b"], flag: false },
  env: { STYLE: "cinematic" },
  steps: {
    storyboard: {
      outputs: { json: { scenes: [{ description: "dawn" }, { description: "dusk" }] }, text: "t" },
    },
    clips: {
      outputs: [
        { file: "clips/0.mp4", id: "v0" },
        { file: "clips/1.mp4", id: "v1" },
      ],
    },
  },
  run: { id: "r1", dir: "/tmp/runs/r1", name: "storyboard" },
};

describe("evaluateValue", () => {
  it("keeps the type of a whole expression", () => {
    expect(evaluateValue("${{ inputs.scenes }}", context)).toBe(3);
    expect(evaluateValue("${{ inputs.flag }}", context)).toBe(false);
    expect(evaluateValue(" ${{ steps.storyboard.outputs.json.scenes }} ", context)).toEqual([
      { description: "dawn" },
      { description: "dusk" },
    ]);
  });

  it("interpolates expressions inside longer strings", () => {
    expect(
      evaluateValue("Split into ${{ inputs.scenes }} scenes: ${{ inputs.story }}", context),
    ).toBe("Split into 3 scenes: A fox");
    expect(evaluateValue("clips/scene-${{ index }}.mp4", { ...context, index: 2 })).toBe(
      "clips/scene-2.mp4",
    );
    expect(evaluateValue("x${{ inputs.missing }}y", context)).toBe("xy");
    expect(evaluateValue("tags: ${{ inputs.tags }}", context)).toBe('tags: [\n  "a",\n  "b"\n]');
  });

  it("applies object filters", () => {
    expect(evaluateValue("${{ steps.clips.outputs.*.file }}", context)).toEqual([
      "clips/0.mp4",
      "clips/1.mp4",
    ]);
    expect(
      evaluateValue("${{ steps.storyboard.outputs.json.scenes.*.description }}", context),
    ).toEqual(["dawn", "dusk"]);
  });

  it("evaluates deeply and leaves keys and non-strings alone", () => {
    const value = {
      prompt: "${{ item.description }}",
      seconds: 4,
      list: ["${{ env.STYLE }}", true],
    };
    expect(evaluateValue(value, { ...context, item: { description: "dawn" } })).toEqual({
      prompt: "dawn",
      seconds: 4,
      list: ["cinematic", true],
    });
  });

  it("supports GitHub functions and operators", () => {
    expect(evaluateValue("${{ format('{0}-{1}', inputs.story, run.name) }}", context)).toBe(
      "A fox-storyboard",
    );
    expect(evaluateValue("${{ join(inputs.tags, '+') }}", context)).toBe("a+b");
    expect(evaluateValue("${{ inputs.scenes > 2 && 'many' || 'few' }}", context)).toBe("many");
    expect(evaluateValue("${{ fromJSON('{\"a\":[1,2]}') }}", context)).toEqual({ a: [1, 2] });
    expect(evaluateValue("${{ '}}' }}", context)).toBe("}}");
  });

  it("reads the previous item of a sequential fan-out, null in the first (GitHub's && and ||)", () => {
    const first = { ...context, item: "a", index: 0, previous: null };
    const second = {
      ...context,
      item: "b",
      index: 1,
      previous: { item: "a", index: 0, outputs: { file: "frames/0.png" } },
    };
    // `&&` gives its first falsy operand, `||` its first truthy one: null, then the fallback.
    expect(evaluateValue("${{ previous && previous.outputs.file }}", first)).toBeNull();
    expect(evaluateValue("${{ previous.outputs.file || 'start.png' }}", first)).toBe("start.png");
    // A property of null is null, not an error; inside text it is empty.
    expect(evaluateValue("${{ previous.outputs.file }}", first)).toBeNull();
    expect(evaluateValue("after ${{ previous.index }}:", first)).toBe("after :");
    expect(evaluateValue("${{ previous && previous.outputs.file }}", second)).toBe("frames/0.png");
    expect(evaluateValue("${{ previous.item }}-${{ previous.index }}", second)).toBe("a-0");
    expect(evaluateValue("${{ previous == null }}", first)).toBe(true);
    // Outside a fan-out (no `previous` given) it is null as well.
    expect(evaluateValue("${{ previous }}", context)).toBeNull();
  });

  it("keeps prototype keys as plain data", () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"x": 1}}');
    const result = evaluateValue("${{ item }}", { ...context, item: hostile }) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const copied = evaluateValue(hostile, context) as Record<string, unknown>;
    expect(Object.keys(copied)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("gives a copy of what it reads, as plain data", () => {
    const when = new Date("2026-01-02T03:04:05.000Z");
    const scenes = [{ description: "dawn", when, skip: undefined, run: () => 1 }, 7n];
    const read = evaluateValue("${{ steps.a.outputs.scenes }}", {
      ...context,
      steps: { a: { outputs: { scenes } } },
    }) as unknown[];
    expect(read).toEqual([
      { description: "dawn", when: "2026-01-02T03:04:05.000Z", skip: null, run: null },
      7,
    ]);
    // A copy: what a unit does with it never reaches the step's outputs.
    (read[0] as { description: string }).description = "changed";
    expect(scenes[0]).toMatchObject({ description: "dawn" });
    // The same through an object that holds it.
    const outputs = evaluateValue("${{ steps.a.outputs }}", {
      ...context,
      steps: { a: { outputs: { scenes } } },
    });
    expect(outputs).toEqual({
      scenes: [{ description: "dawn", when: "2026-01-02T03:04:05.000Z", skip: null, run: null }, 7],
    });
  });

  it("never runs JavaScript", () => {
    expect(() => evaluateValue("${{ process.exit(1) }}", context)).toThrow(ExpressionError);
    expect(() =>
      evaluateValue("${{ inputs.constructor.constructor('return 1')() }}", context),
    ).toThrow(ExpressionError);
    expect(evaluateValue("${{ inputs.constructor }}", context)).toBeNull();
  });

  it("reports bad syntax with the expression", () => {
    try {
      evaluateValue("${{ inputs. }}", context);
      expect.unreachable();
    } catch (error) {
      expect(ExpressionError.isInstance(error)).toBe(true);
      expect((error as ExpressionError).expression).toBe("inputs.");
      expect((error as ExpressionError).toJSON()).toMatchObject({
        code: "expression_error",
        expression: "inputs.",
      });
    }
    expect(() => evaluateValue("${{ inputs.scenes", context)).toThrow(/unterminated/);
  });
});

describe("evaluateCondition", () => {
  it("accepts expressions with or without ${{ }}", () => {
    expect(evaluateCondition("inputs.scenes == 3", context)).toBe(true);
    expect(evaluateCondition("${{ inputs.flag }}", context)).toBe(false);
    expect(evaluateCondition("${{ inputs.story }}", context)).toBe(true);
    expect(evaluateCondition("inputs.missing", context)).toBe(false);
  });

  it("has GitHub status functions with an implicit success()", () => {
    expect(evaluateCondition("true", { ...context, status: "failure" })).toBe(false);
    expect(evaluateCondition("failure()", { ...context, status: "failure" })).toBe(true);
    expect(evaluateCondition("${{ always() }}", { ...context, status: "cancelled" })).toBe(true);
    expect(evaluateCondition("success()", context)).toBe(true);
    expect(evaluateCondition("'failure()' == 'x'", { ...context, status: "failure" })).toBe(false);
  });
});

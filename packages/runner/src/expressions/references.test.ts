// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipeline expressions are written `${{ … }}` in plain strings
import { describe, expect, it } from "vitest";
import { collectReferencePaths, collectReferences, containsExpression } from "./references.js";

describe("collectReferences", () => {
  it("finds steps, inputs, env and item uses", () => {
    const refs = collectReferences({
      prompt: "${{ item.description }} ${{ env.STYLE }} ${{ inputs.story }}",
      files: "${{ steps.clips.outputs.*.file }}",
      other: ["${{ steps['final'].outputs.file || inputs.fallback }}"],
    });
    expect([...refs.steps].sort()).toEqual(["clips", "final"]);
    expect([...refs.inputs].sort()).toEqual(["fallback", "story"]);
    expect([...refs.env]).toEqual(["STYLE"]);
    expect(refs.usesItem).toBe(true);
  });

  it("gives static paths, stopping at computed indexes", () => {
    expect(collectReferencePaths("${{ steps.clips.outputs.*.file }}")[0]?.path).toEqual([
      "clips",
      "outputs",
      "*",
      "file",
    ]);
    const paths = collectReferencePaths("${{ steps.a.outputs[inputs.key] }}");
    expect(paths.map((p) => [p.context, p.path])).toEqual([
      ["steps", ["a", "outputs"]],
      ["inputs", ["key"]],
    ]);
    expect(collectReferencePaths("${{ index }}")).toEqual([
      { context: "index", path: [], expression: "index" },
    ]);
  });

  it("skips broken expressions", () => {
    expect(collectReferencePaths("${{ steps. }} ${{ ")).toEqual([]);
  });
});

describe("containsExpression", () => {
  it("looks deeply", () => {
    expect(containsExpression({ a: [1, { b: "x" }] })).toBe(false);
    expect(containsExpression({ a: [1, { b: "${{ inputs.x }}" }] })).toBe(true);
  });
});

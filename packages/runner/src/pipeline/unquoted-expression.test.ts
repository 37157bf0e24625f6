// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { describe, expect, it } from "vitest";
import { quotedLine, quotedSuggestion, unquotedExpressionColumn } from "./unquoted-expression.js";
import { validatePipeline } from "./validate-pipeline.js";

async function problems(source: string) {
  return (await validatePipeline({ path: "p.yaml", source })).diagnostics;
}

describe("unquoted ${{ }} expressions", () => {
  it("finds the first unquoted expression of a line, never a quoted or commented one", () => {
    expect(unquotedExpressionColumn("    video: { prompt: ${{ item }} }")).toBe(22);
    expect(unquotedExpressionColumn('    prompt: "${{ item }}: x"')).toBeUndefined();
    expect(unquotedExpressionColumn("    prompt: '${{ item }}: x'")).toBeUndefined();
    expect(unquotedExpressionColumn("    prompt: x # ${{ item }}")).toBeUndefined();
    expect(unquotedExpressionColumn("    prompt: it's ${{ item }}: x")).toBe(18);
  });

  it("suggests the value quoted", () => {
    expect(quotedSuggestion("      prompt: Scene ${{ index }}: ${{ item }}")).toBe(
      'prompt: "Scene ${{ index }}: ${{ item }}"',
    );
    expect(quotedSuggestion("    video: { prompt: ${{ item }} }")).toBeUndefined();
  });

  it("quotes the value holding an expression, in a block or inside braces", () => {
    expect(quotedLine("    video: { model: m, prompt: ${{ item }} }", 32)).toBe(
      '    video: { model: m, prompt: "${{ item }}" }',
    );
    expect(quotedLine("    v: [${{ a }}, Scene ${{ b }}]", 22)).toBe(
      '    v: [${{ a }}, "Scene ${{ b }}"]',
    );
    expect(quotedLine("      prompt: Scene ${{ index }}: ${{ item }}", 21)).toBe(
      '      prompt: "Scene ${{ index }}: ${{ item }}"',
    );
  });

  it("tells a wrongly indented line holding an expression as its indentation, not its quotes", async () => {
    const found = await problems(
      "name: t\nsteps:\n  - id: a\n    video:\n      model: m\n     output: clips/${{ index }}.mp4\n      prompt: x\n",
    );
    expect(found).toEqual([
      expect.objectContaining({
        code: "yaml_indentation",
        line: 6,
        column: 6,
        message: "this line is indented 5 spaces; its sibling at line 5 uses 6",
        hint: "indent it by 6 spaces, as line 5",
      }),
    ]);
  });

  it("reports one problem per line, at the expression, with a hint to quote it", async () => {
    const found = await problems(
      "name: t\nsteps:\n  - id: a\n    video: { model: m, prompt: ${{ inputs.x }} }\n  - id: b\n    video:\n      prompt: Scene ${{ index }}: ${{ item }}\n",
    );
    expect(found).toEqual([
      expect.objectContaining({
        code: "yaml_unquoted_expression",
        line: 4,
        column: 32,
        hint: 'quote the value: video: { model: m, prompt: "${{ inputs.x }}" }',
      }),
      expect.objectContaining({
        code: "yaml_unquoted_expression",
        line: 7,
        column: 21,
        hint: 'quote the whole value: prompt: "Scene ${{ index }}: ${{ item }}"',
      }),
    ]);
  });

  it("tells an unclosed `{` at its opener, not at the lines the parser gave up on", async () => {
    const found = await problems("name: t\nsteps:\n  - id: a\n    video: { model: m\n  - id: b\n");
    expect(found).toEqual([
      expect.objectContaining({
        code: "yaml_unclosed_flow",
        line: 4,
        column: 12,
        message: "the mapping opened with `{` at 4:12 is never closed",
        hint: "close it: video: { model: m }",
      }),
    ]);
  });

  it("leaves other YAML errors as the parser says them", async () => {
    const found = await problems('name: t\nsteps:\n  - id: a\n    chat: { prompt: "open\n');
    expect(found[0]?.code).toBe("yaml_syntax");
  });
});

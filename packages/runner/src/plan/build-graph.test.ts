// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { describe, expect, it } from "vitest";
import type { StepSpec } from "../pipeline/pipeline-spec.js";
import { buildGraph, findCycles } from "./build-graph.js";

const steps = (list: StepSpec[]) => ({ spec: { steps: list } });

describe("buildGraph", () => {
  it("orders steps by needs and references, keeping file order where free", () => {
    const graph = buildGraph(
      steps([
        { id: "final", ffmpeg: { concat: "${{ steps.clips.outputs.*.file }}", output: "f.mp4" } },
        { id: "board", chat: { prompt: "x" } },
        {
          id: "clips",
          for_each: "${{ steps.board.outputs.json }}",
          video: { prompt: "${{ item }}" },
        },
        { id: "late", needs: ["board"], chat: { prompt: "y" } },
      ]),
    );
    expect(graph.order).toEqual(["board", "clips", "final", "late"]);
    expect([...(graph.dependencies.get("final") ?? [])]).toEqual(["clips"]);
    expect([...(graph.dependencies.get("late") ?? [])]).toEqual(["board"]);
  });

  it("reads bare `if:` conditions as expressions", () => {
    const graph = buildGraph(
      steps([
        { id: "late", if: "steps.early.outputs.text != ''", chat: { prompt: "y" } },
        { id: "early", chat: { prompt: "x" } },
      ]),
    );
    expect(graph.order).toEqual(["early", "late"]);
  });

  it("refuses cycles", () => {
    expect(() =>
      buildGraph(
        steps([
          { id: "a", chat: { prompt: "${{ steps.b.outputs.text }}" } },
          { id: "b", chat: { prompt: "${{ steps.a.outputs.text }}" } },
        ]),
      ),
    ).toThrow(/dependency cycle: a → b → a/);
  });

  it("finds every cycle", () => {
    const cycles = findCycles(
      new Map([
        ["a", new Set(["b"])],
        ["b", new Set(["a"])],
        ["c", new Set(["c2"])],
        ["c2", new Set(["c"])],
        ["d", new Set(["a"])],
      ]),
    );
    expect(cycles).toEqual([
      ["a", "b", "a"],
      ["c", "c2", "c"],
    ]);
  });
});

import { kindsByName } from "@reelsmith/runner/kinds";
import { describe, expect, it } from "vitest";
import { storedPipeline, storedPipelines, writtenPipelines } from "./written-pipelines.js";

const source = (max: number) => `name: p
max_credits: ${max}
steps:
  - id: clips
    for_each: [1, 2]
    video: { prompt: "a fox" }
  - id: final
    ffmpeg: { concat: "\${{ steps.clips.outputs.*.file }}", output: final.mp4 }
`;
const run = (runId: string, max = 60) => ({
  runId,
  pipelineHash: `hash-${max}`,
  pipelineSource: source(max),
});

describe("writtenPipelines", () => {
  it("parses a run's pipeline once, however many of its units ask", () => {
    const written = writtenPipelines();
    const first = written.of(run("r1"));
    for (let unit = 0; unit < 100; unit++) expect(written.of(run("r1"))).toBe(first);
    expect(written.parses).toBe(1);
    expect(first.max_credits).toBe(60);
    expect(first.steps.map((step) => step.id)).toEqual(["clips", "final"]);
  });

  it("keys by the run and its pipeline's hash", () => {
    const written = writtenPipelines();
    written.of(run("r1", 60));
    expect(written.of(run("r2", 60))).not.toBe(written.of(run("r1", 60)));
    expect(written.of(run("r1", 12)).max_credits).toBe(12);
    expect(written.parses).toBe(3);
  });

  it("keeps a bounded number, forgetting the least recently used first", () => {
    const written = writtenPipelines(2);
    written.of(run("r1"));
    written.of(run("r2"));
    written.of(run("r1")); // r2 is now the least recently used
    written.of(run("r3"));
    expect(written.parses).toBe(3);
    written.of(run("r1"));
    expect(written.parses).toBe(3);
    written.of(run("r2"));
    expect(written.parses).toBe(4);
  });

  it("says what is wrong with a stored text that is not a pipeline", () => {
    expect(() =>
      writtenPipelines().of({ runId: "r", pipelineHash: "h", pipelineSource: "steps: 3\n" }),
    ).toThrow(/expected a mapping with a `steps` list/);
  });

  it("works out who reads each step's outputs once per run and kinds, however many units ask", () => {
    const written = writtenPipelines();
    const kinds = kindsByName();
    const first = written.readersOf(run("r1"), kinds);
    for (let unit = 0; unit < 100; unit++) expect(written.readersOf(run("r1"), kinds)).toBe(first);
    expect(written.readerIndexes).toBe(1);
    expect(written.parses).toBe(1);
    expect(first("clips").map((reader) => [reader.step, reader.kind])).toEqual([
      ["final", "ffmpeg"],
    ]);
    // Another run, or other kinds (a worker with a custom kind): worked out for it.
    written.readersOf(run("r2"), kinds);
    written.readersOf(run("r1"), kindsByName());
    expect(written.readerIndexes).toBe(3);
  });

  it("forgets who reads a run's outputs with its pipeline", () => {
    const written = writtenPipelines(1);
    const kinds = kindsByName();
    written.readersOf(run("r1"), kinds);
    written.readersOf(run("r2"), kinds);
    written.readersOf(run("r1"), kinds);
    expect(written.readerIndexes).toBe(3);
    expect(written.parses).toBe(3);
  });

  it("a stored run's services read who reads its outputs from the process's pipelines", () => {
    const pipeline = storedPipeline(run(`services-${process.pid}`));
    if (!("read" in pipeline) || !pipeline.readers) throw new Error("expected a kept pipeline");
    const kinds = kindsByName();
    const before = storedPipelines.readerIndexes;
    for (let unit = 0; unit < 50; unit++)
      expect(pipeline.readers(kinds)("clips")[0]?.step).toBe("final");
    expect(storedPipelines.readerIndexes - before).toBe(1);
  });
});

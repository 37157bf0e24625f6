import { copyFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { pickTake } from "../src/takes/pick-take.js";
import { retakeItem } from "../src/takes/retake-item.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

/** Every real read of a file, by its name: the runner's own reads go through these spies. */
const reads = vi.hoisted(() => ({ names: [] as string[] }));
const { realReadFile } = await vi.hoisted(async () => {
  const fs = await import("node:fs");
  return { realReadFile: fs.readFileSync };
});
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const readFileSync = ((file: Parameters<typeof fs.readFileSync>[0], ...rest: unknown[]) => {
    reads.names.push(String(file));
    return (fs.readFileSync as (...args: unknown[]) => unknown)(file, ...rest);
  }) as typeof fs.readFileSync;
  return { ...fs, readFileSync, default: { ...fs, readFileSync } };
});
vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  const readFile = ((file: Parameters<typeof fs.readFile>[0], ...rest: unknown[]) => {
    reads.names.push(String(file));
    return (fs.readFile as (...args: unknown[]) => unknown)(file, ...rest);
  }) as typeof fs.readFile;
  return { ...fs, readFile, default: { ...fs, readFile } };
});

/**
 * Every replay of journal records (the runner's one fold), by how many records it folded and
 * whether it started from nothing or went on from a state replayed before.
 */
const folds = vi.hoisted(() => ({ calls: [] as { records: number; fresh: boolean }[] }));
vi.mock("../src/journal/journal-state.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/journal/journal-state.js")>();
  const foldJournal: typeof real.foldJournal = (records, folders, state) => {
    folds.calls.push({ records: records.length, fresh: state === undefined });
    return real.foldJournal(records, folders, state);
  };
  return { ...real, foldJournal };
});

/** The records of a run's journal as it stands, read without counting. */
const linesOf = (runDir: string) =>
  realReadFile(join(runDir, "journal.jsonl"), "utf8").split("\n").filter(Boolean).length;

/** How many times files named `name` were read since `from`. */
const readsOf = (name: string, from: number) =>
  reads.names.slice(from).filter((file) => basename(file) === name).length;

describe("a take reads its run once", () => {
  let service: TestService;
  let runDir: string;
  beforeAll(async () => {
    service = await startTestService();
    const pipeline = join(service.root, "storyboard.yaml");
    copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
    const result = await runPipeline(pipeline, service.options());
    expect(result.status).toBe("succeeded");
    runDir = result.runDir;
  });
  afterAll(() => service.close());

  it("a retake loads its pipeline once, reads journal.jsonl once and replays it once", async () => {
    const linesBefore = linesOf(runDir);
    const folded = folds.calls.length;
    const from = reads.names.length;
    const before = service.simulator.stats().videoJobs.created;
    const result = await retakeItem(
      runDir,
      { step: "clips", index: 1, prompt: "Scene 1: the fox under a frozen waterfall" },
      service.options(),
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    expect(service.simulator.stats().videoJobs.created - before).toBe(1);
    expect(readsOf("journal.jsonl", from)).toBe(1);
    expect(readsOf("storyboard.yaml", from)).toBe(1);
    expectReplayedOnce(folded, linesBefore, runDir);
  });

  it("a pick loads its pipeline once, reads journal.jsonl once and replays it once", async () => {
    const linesBefore = linesOf(runDir);
    const folded = folds.calls.length;
    const from = reads.names.length;
    const result = await pickTake(runDir, { step: "clips", index: 1, take: 1 }, service.options());
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    expect(readsOf("journal.jsonl", from)).toBe(1);
    expect(readsOf("storyboard.yaml", from)).toBe(1);
    expectReplayedOnce(folded, linesBefore, runDir);
  });
});

/**
 * One replay: the journal as it was read folded once from nothing, then only the records
 * appended since folded on (every record of the journal folded once, none twice).
 */
function expectReplayedOnce(from: number, linesBefore: number, runDir: string): void {
  const calls = folds.calls.slice(from);
  expect(calls.filter((call) => call.fresh && call.records > 0)).toEqual([
    { records: linesBefore, fresh: true },
  ]);
  // Those appended after the last fold (a kept take's record, run.end) are never folded.
  const folded = calls.reduce((sum, call) => sum + call.records, 0);
  expect(folded).toBeGreaterThan(linesBefore);
  expect(folded).toBeLessThan(linesOf(runDir));
}

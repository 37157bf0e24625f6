import { copyFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { pickTake } from "../src/takes/pick-take.js";
import { retakeItem } from "../src/takes/retake-item.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

/** Every real read of a file, by its name: the runner's own reads go through these spies. */
const reads = vi.hoisted(() => ({ names: [] as string[] }));
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

  it("a retake loads its pipeline once and reads journal.jsonl once", async () => {
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
  });

  it("a pick loads its pipeline once and reads journal.jsonl once", async () => {
    const from = reads.names.length;
    const result = await pickTake(runDir, { step: "clips", index: 1, take: 1 }, service.options());
    expect(result.error).toBeUndefined();
    expect(result.status).toBe("succeeded");
    expect(readsOf("journal.jsonl", from)).toBe(1);
    expect(readsOf("storyboard.yaml", from)).toBe(1);
  });
});

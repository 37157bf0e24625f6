import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

function blobs(cacheDir: string): string[] {
  return readdirSync(join(cacheDir, "blobs"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe("cache integrity", () => {
  let service: TestService;
  let pipeline: string;
  beforeAll(async () => {
    service = await startTestService();
    pipeline = join(service.root, "storyboard.yaml");
    copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
  });
  afterAll(() => service.close());

  it("fetches a clip again when its cached bytes were damaged, and an edited run clip never reaches the cache", async () => {
    const first = await runPipeline(
      pipeline,
      service.options({ runDir: join(service.root, "r1") }),
    );
    expect(first.status).toBe("succeeded");
    const clips = first.steps.clips?.outputs as { file: string }[];
    const original = readFileSync(clips[1]!.file);
    // Edit a clip of the finished run in place: the cache keeps its own bytes.
    writeFileSync(clips[1]!.file, Buffer.concat([original, Buffer.from("tampered")]));
    // Damage the cached copy of another clip.
    const damaged = readFileSync(clips[0]!.file);
    const blob = blobs(service.options().cacheDir!).find((file) =>
      readFileSync(file).equals(damaged),
    );
    expect(blob).toBeDefined();
    const bytes = readFileSync(blob!);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
    writeFileSync(blob!, bytes);

    const created = service.simulator.stats().videoJobs.created;
    const second = await runPipeline(
      pipeline,
      service.options({ runDir: join(service.root, "r2") }),
    );
    expect(second.error).toBeUndefined();
    expect(second.status).toBe("succeeded");
    // Only the damaged clip was asked for again; the edited one came back as first made.
    expect(service.simulator.stats().videoJobs.created - created).toBe(1);
    const again = second.steps.clips?.outputs as { file: string }[];
    expect(readFileSync(again[1]!.file).equals(original)).toBe(true);
    expect(readFileSync(again[0]!.file).equals(damaged)).toBe(true);
  });
});

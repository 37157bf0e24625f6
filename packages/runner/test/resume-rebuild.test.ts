import { copyFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

function posts(service: TestService): number {
  const counts = service.simulator.stats().requests["POST /v1/videos"] ?? {};
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

describe("resume of a finished run whose outputs were deleted or changed", () => {
  let service: TestService;
  let pipeline: string;
  beforeAll(async () => {
    service = await startTestService();
    pipeline = join(service.root, "storyboard.yaml");
    copyFileSync(join(import.meta.dirname, "fixtures", "storyboard.yaml"), pipeline);
  });
  afterAll(() => service.close());

  it("downloads the clip again, rebuilds final.mp4 and submits nothing", async () => {
    const runDir = join(service.root, "done");
    const first = await runPipeline(pipeline, service.options({ runDir, cache: false }));
    expect(first.status).toBe("succeeded");
    rmSync(join(runDir, "clips", "scene-1.mp4"));
    rmSync(join(runDir, "final.mp4"));
    // A changed artifact counts as damaged too.
    writeFileSync(join(runDir, "clips", "scene-2.mp4"), "not the clip the service made");
    const created = service.simulator.stats().videoJobs.created;
    const submitted = posts(service);

    const options = service.options({ resume: runDir, cache: false });
    const resumed = await runPipeline(undefined, options);
    expect(resumed.error).toBeUndefined();
    expect(resumed.status).toBe("succeeded");
    expect(service.simulator.stats().videoJobs.created).toBe(created);
    expect(posts(service)).toBe(submitted);
    for (const file of ["clips/scene-1.mp4", "clips/scene-2.mp4", "final.mp4"])
      expect(existsSync(join(runDir, file))).toBe(true);
    const durations = await Promise.all(
      [0, 1, 2].map(async (i) => (await probe(join(runDir, "clips", `scene-${i}.mp4`))).duration),
    );
    const final = await probe(join(runDir, "final.mp4"));
    expect(final.duration).toBeCloseTo(
      durations.reduce((a, b) => a + b, 0),
      1,
    );
    // The intact clip is reused; the other two are downloaded again from their journaled jobs.
    const downloaded = options.events.flatMap((e) =>
      e.type === "unit.progress" && e.stage === "saved" ? [e.index] : [],
    );
    expect(downloaded.sort()).toEqual([1, 2]);
    expect(options.events).toContainEqual(
      expect.objectContaining({ type: "item.end", step: "clips", index: 0, status: "reused" }),
    );
  });
});

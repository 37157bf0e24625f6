// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipelines hold ${{ }} expressions
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { locateFfmpeg, probe } from "@reelsmith/media";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

describe("media probes", () => {
  let service: TestService | undefined;
  let log = "";
  const saved = process.env.FFPROBE_PATH;
  beforeAll(async () => {
    // The real ffprobe behind a script that logs the file each run reads.
    service = await startTestService();
    const real = (await locateFfmpeg()).ffprobe.path;
    log = join(service.root, "ffprobe.log");
    const script = join(service.root, "logging-ffprobe.sh");
    writeFileSync(log, "");
    writeFileSync(
      script,
      `#!/bin/sh\nfor last; do :; done\nprintf '%s\\n' "$last" >> '${log}'\nexec '${real}' "$@"\n`,
    );
    chmodSync(script, 0o755);
    process.env.FFPROBE_PATH = script;
    await locateFfmpeg({ refresh: true });
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.FFPROBE_PATH;
    else process.env.FFPROBE_PATH = saved;
    await locateFfmpeg({ refresh: true });
  });
  afterEach(async () => {
    await service?.close();
  });

  it("probes each downloaded clip once and the joined output once", async () => {
    const options = service!.options({ cache: false });
    const result = await runPipeline(
      {
        name: "probes",
        defaults: { video: { model: "reel-video-2-lite", seconds: 1, size: "720x480" } },
        steps: [
          {
            id: "clips",
            for_each: ["a fox", "a lake", "a storm"],
            video: { prompt: "${{ item }}" },
          },
          {
            id: "final",
            ffmpeg: { concat: "${{ steps.clips.outputs.*.file }}", output: "final.mp4" },
          },
        ],
      },
      options,
    );
    expect(result.status).toBe("succeeded");
    const runDir = result.runDir;
    const probed = readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line.startsWith(runDir));
    const outputs = result.steps.clips?.outputs as { file: string; probe: { duration: number } }[];
    expect(outputs).toHaveLength(3);
    const clips = outputs.map((clip) => {
      expect(clip.probe.duration).toBeCloseTo(1, 0);
      return clip.file;
    });
    // Each clip once (when downloaded); the join once (its verification, before the rename).
    expect(probed.filter((file) => clips.includes(file)).sort()).toEqual([...clips].sort());
    const final = result.steps.final?.outputs as { file: string; probe: { size: number } };
    expect(probed.filter((file) => !clips.includes(file))).toEqual([
      expect.stringMatching(/[\\/]\.final\.[0-9a-f]+\.tmp\.mp4$/),
    ]);
    expect(final.probe.size).toBeGreaterThan(0);
    // A clip's probe output is its file's whole probe, with the file's size and time.
    const [first] = outputs;
    const file = statSync(first!.file);
    expect(first!.probe).toEqual({
      ...(await probe(first!.file)),
      size: file.size,
      mtimeMs: file.mtimeMs,
    });
  });
});

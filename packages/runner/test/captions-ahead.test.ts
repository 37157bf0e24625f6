import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { burnWordCaptions, type FfmpegTools, locateFfmpeg, probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "../src/events/run-event.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const run = promisify(execFile);
let tools: FfmpegTools;

/** A film reframed to 9:16, then its words burnt in for the tall frame; `extra` appended. */
const pipeline = (extra = "") => `name: tall
steps:
  - id: tall_frame
    ffmpeg: { reframe: film.mp4, aspect: "9:16", mode: blur-pad, output: tall.mp4 }
  - id: tall
    ffmpeg:
      captions: \${{ steps.tall_frame.outputs.file }}
      words:
        - { word: A, start: 0.1, end: 0.4 }
        - { word: fox, start: 0.5, end: 0.9 }
        - { word: sleeps, start: 1.0, end: 1.6 }
      style: { preset: social, mode: pop }
      output: final-9x16.mp4
${extra}`;

/** The ffmpeg command lines a run's steps told (debug logs), by step. */
function commandsOf(events: readonly RunEvent[], step: string): string[] {
  return events
    .filter((event) => event.type === "log" && event.step === step)
    .map((event) => String((event as { message: string }).message))
    .filter((message) => message.startsWith("$ "));
}

/** Each decoded frame's checksum (the picture, whatever the container's timestamps). */
async function frameSums(file: string): Promise<string[]> {
  const { stdout } = await run(
    tools.ffmpeg.path,
    ["-v", "error", "-i", file, "-map", "0:v:0", "-f", "framemd5", "-"],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => line.split(",").at(-1)?.trim() ?? "");
}

describe("a reframe whose one reader burns word captions into it (npm ffmpeg 4.1)", () => {
  let service: TestService;
  let dir: string;

  beforeAll(async () => {
    tools = await locateFfmpeg();
    service = await startTestService();
    dir = join(service.root, "tall");
    mkdirSync(dir, { recursive: true });
    await run(tools.ffmpeg.path, [
      ...["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=24:d=2"],
      ...["-f", "lavfi", "-i", "sine=f=440:d=2", "-shortest"],
      ...["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac"],
      join(dir, "film.mp4"),
    ]);
  }, 120_000);
  afterAll(() => service.close());

  it("makes both steps' files in one ffmpeg command, each step's outputs true", async () => {
    writeFileSync(join(dir, "pipeline.yaml"), pipeline());
    const options = service.options();
    const result = await runPipeline(join(dir, "pipeline.yaml"), options);
    expect(result.status).toBe("succeeded");
    const frame = result.steps.tall_frame?.outputs as { file: string; duration: number };
    const tall = result.steps.tall?.outputs as {
      file: string;
      duration: number;
      ass: string;
      missing: string[];
      probe: { width: number; height: number };
    };
    // One command line, told by the reframe, writes both files; the captions step runs none.
    const [command, ...more] = commandsOf(options.events, "tall_frame");
    expect(more).toEqual([]);
    expect(command).toMatch(/\.tall\.[0-9a-f]+\.tmp\.mp4/);
    expect(command).toMatch(/\.final-9x16\.[0-9a-f]+\.tmp\.mp4/);
    expect(commandsOf(options.events, "tall")).toEqual([]);
    // Both steps still start and end on their own.
    for (const step of ["tall_frame", "tall"]) {
      const types = options.events.filter((e) => "step" in e && e.step === step).map((e) => e.type);
      expect(types, step).toContain("step.start");
      expect(types, step).toContain("step.end");
    }
    const [framed, captioned] = await Promise.all([probe(frame.file), probe(tall.file)]);
    for (const info of [framed, captioned]) {
      expect([info.width, info.height]).toEqual([180, 320]);
      expect(info.hasAudio).toBe(true);
      expect(Math.abs(info.duration - 2)).toBeLessThanOrEqual(0.1);
    }
    expect(tall.probe).toMatchObject({ width: 180, height: 320 });
    expect(tall.duration).toBeCloseTo(captioned.videoDuration ?? 0, 3);
    expect(tall.missing).toEqual([]);
    expect(tall.ass).toBe(join(result.runDir, "final-9x16.ass"));
    expect(readFileSync(tall.ass, "utf8")).toMatch(/^Dialogue: .*sleeps/m);
    // The picture is the one a pass of its own would burn from the reframed file.
    const alone = await burnWordCaptions(frame.file, {
      output: join(dir, "alone.mp4"),
      words: [
        { word: "A", start: 0.1, end: 0.4 },
        { word: "fox", start: 0.5, end: 0.9 },
        { word: "sleeps", start: 1.0, end: 1.6 },
      ],
      preset: "social",
      mode: "pop",
      style: {},
    });
    const [ours, theirs] = await Promise.all([frameSums(tall.file), frameSums(alone.output)]);
    expect(ours.length).toBeGreaterThan(40);
    expect(ours).toEqual(theirs);
  }, 120_000);

  it("runs each step's own pass when the reframed file is also a pipeline output", async () => {
    writeFileSync(
      join(dir, "pipeline.yaml"),
      pipeline("outputs:\n  frame: ${{ steps.tall_frame.outputs.file }}\n"),
    );
    const options = service.options();
    const result = await runPipeline(join(dir, "pipeline.yaml"), options);
    expect(result.status).toBe("succeeded");
    expect(commandsOf(options.events, "tall_frame")).toHaveLength(1);
    expect(commandsOf(options.events, "tall_frame")[0]).not.toMatch(/final-9x16/);
    expect(commandsOf(options.events, "tall")).toHaveLength(1);
    expect(existsSync(join(result.runDir, "final-9x16.mp4"))).toBe(true);
  }, 120_000);
});

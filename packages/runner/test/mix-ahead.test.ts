import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { type FfmpegTools, locateFfmpeg, probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunEvent } from "../src/events/run-event.js";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const run = promisify(execFile);
let tools: FfmpegTools;

/**
 * Three clips joined with crossfades, then the film's sound mixed under it without the
 * clips' own: narration at each clip's start, music ducked under it, normalised.
 */
const pipeline = (mix: { clipAudio?: string; extra?: string } = {}) => `name: sound
steps:
  - id: joined
    ffmpeg:
      transition: [a.mp4, b.mp4, c.mp4]
      effect: crossfade
      duration: 0.3
      output: joined.mp4
  - id: mixed
    ffmpeg:
      mix: \${{ steps.joined.outputs.file }}
      narration: [one.wav, two.wav, three.wav]
      clips: [a.mp4, b.mp4, c.mp4]
      transition_duration: 0.3
      music: { file: music.wav, volume: 0.5, fade_in: 0.5, fade_out: 0.5 }
      clip_audio: ${mix.clipAudio ?? "{ keep: false }"}
      loudness: { integrated: -16, true_peak: -1.5 }
      output: mixed.mp4
${mix.extra ?? ""}`;

/** The ffmpeg command lines a run's step told (debug logs). */
function commandsOf(events: readonly RunEvent[], step: string): string[] {
  return events
    .filter((event) => event.type === "log" && event.step === step)
    .map((event) => String((event as { message: string }).message))
    .filter((message) => message.startsWith("$ "));
}

/** A step's debug messages that are not command lines. */
function notesOf(events: readonly RunEvent[], step: string): string[] {
  return events
    .filter((event) => event.type === "log" && event.step === step)
    .map((event) => String((event as { message: string }).message))
    .filter((message) => !message.startsWith("$ "));
}

/** The md5 of every packet of a file's streams, with their times (`framemd5`). */
async function packets(file: string): Promise<string> {
  const { stdout } = await run(
    tools.ffmpeg.path,
    ["-v", "error", "-i", file, "-map", "0", "-c", "copy", "-f", "framemd5", "-"],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

describe("a join whose one reader mixes a sound without the film's own (npm ffmpeg 4.1)", () => {
  let service: TestService;
  let dir: string;

  beforeAll(async () => {
    tools = await locateFfmpeg();
    service = await startTestService();
    dir = join(service.root, "sound");
    mkdirSync(dir, { recursive: true });
    const ffmpeg = (...args: string[]) => run(tools.ffmpeg.path, ["-v", "error", ...args]);
    // Lengths that are not whole frames, as fitted clips' are.
    for (const [name, seconds] of [
      ["a", 1.3],
      ["b", 0.9],
      ["c", 1.15],
    ] as const) {
      await ffmpeg(
        ...["-f", "lavfi", "-i", `testsrc2=s=160x90:r=24:d=${seconds}`],
        ...["-f", "lavfi", "-i", `sine=f=880:d=${seconds}`, "-shortest"],
        ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"],
        join(dir, `${name}.mp4`),
      );
    }
    for (const [name, seconds] of [
      ["one", 0.8],
      ["two", 0.5],
      ["three", 0.9],
    ] as const) {
      await ffmpeg("-f", "lavfi", "-i", `sine=f=2000:d=${seconds}`, join(dir, `${name}.wav`));
    }
    await ffmpeg("-f", "lavfi", "-i", "sine=f=200:d=2", join(dir, "music.wav"));
    await ffmpeg(
      ...["-f", "lavfi", "-i", "testsrc2=s=90x160:r=24:d=0.9"],
      ...["-f", "lavfi", "-i", "sine=f=880:d=0.9", "-shortest"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac"],
      join(dir, "tall.mp4"),
    );
  }, 120_000);
  afterAll(() => service.close());

  /**
   * Runs `yaml`, where the joined film has another reader than the mix (so the mix makes its
   * sound in its own pass), and expects the same packets at the same times, and the same
   * loudness, as the mix made `ahead`. Returns that run's events.
   */
  async function expectOwnPassAlike(
    yaml: string,
    ahead: { file: string; loudness: unknown },
  ): Promise<RunEvent[]> {
    writeFileSync(join(dir, "pipeline.yaml"), yaml);
    const own = service.options();
    const alone = await runPipeline(join(dir, "pipeline.yaml"), own);
    expect(alone.status, alone.error?.message).toBe("succeeded");
    expect(commandsOf(own.events, "mixed")).toHaveLength(2);
    const mixed = alone.steps.mixed?.outputs as typeof ahead;
    expect(mixed.loudness).toEqual(ahead.loudness);
    const [ours, theirs] = await Promise.all([packets(ahead.file), packets(mixed.file)]);
    expect(ours.split("\n").length).toBeGreaterThan(100);
    expect(ours).toBe(theirs);
    return own.events;
  }

  it("makes the sound while the clips are joined, then copies it beside the picture: the packets of a mix of its own", async () => {
    writeFileSync(join(dir, "pipeline.yaml"), pipeline());
    const options = service.options();
    const result = await runPipeline(join(dir, "pipeline.yaml"), options);
    expect(result.status, result.error?.message).toBe("succeeded");
    expect(notesOf(options.events, "joined")).toContain(
      'the sound of "mixed" was made while joining',
    );
    // The join's pass, the loudness measure and the sound; the mix only copies.
    const joining = commandsOf(options.events, "joined");
    expect(joining).toHaveLength(3);
    expect(joining.filter((line) => / -f null -$/.test(line))).toHaveLength(1);
    expect(
      joining.filter((line) => /\.mixed\.mp4\.sound\.[0-9a-f]+\.tmp\.m4a$/.test(line)),
    ).toHaveLength(1);
    const [mixing, ...more] = commandsOf(options.events, "mixed");
    expect(more).toEqual([]);
    expect(mixing).toMatch(/ -c copy /);
    expect(mixing).not.toMatch(/filter_complex/);
    // Nothing of it is left beside the film.
    expect(readdirSync(result.runDir).filter((name) => name.includes("sound"))).toEqual([]);
    const ahead = result.steps.mixed?.outputs as {
      file: string;
      loudness: { integrated: number; true_peak: number; range: number };
    };
    expect(ahead.loudness.integrated).toBeLessThan(-10);
    const film = await probe(ahead.file);
    const joined = await probe(join(result.runDir, "joined.mp4"));
    expect(film.videoDuration).toBe(joined.videoDuration);
    expect(film.hasAudio).toBe(true);

    // The same mix made in a pass of its own (the joined film is also a pipeline output, so
    // the join has another reader): the same packets at the same times, the same loudness.
    const own = await expectOwnPassAlike(
      pipeline({ extra: "outputs:\n  joined: ${{ steps.joined.outputs.file }}\n" }),
      ahead,
    );
    expect(commandsOf(own, "joined")).toHaveLength(1);
  }, 120_000);

  it("makes the sound while a normalising join re-encodes clips of other sizes: the packets of a mix of its own", async () => {
    // Concat of clips of two sizes: each is re-encoded to whole frames of one format, so the
    // film's length is known before the clips are made.
    const concatOf = (extra?: string) =>
      pipeline(extra === undefined ? {} : { extra })
        .replace("transition: [a.mp4, b.mp4, c.mp4]", "concat: [a.mp4, tall.mp4, c.mp4]")
        .replace("      effect: crossfade\n      duration: 0.3\n", "")
        .replace("clips: [a.mp4, b.mp4, c.mp4]", "clips: [a.mp4, tall.mp4, c.mp4]")
        .replace("transition_duration: 0.3", "transition_duration: 0");
    writeFileSync(join(dir, "pipeline.yaml"), concatOf());
    const options = service.options();
    const result = await runPipeline(join(dir, "pipeline.yaml"), options);
    expect(result.status, result.error?.message).toBe("succeeded");
    expect(notesOf(options.events, "joined")).toEqual([
      'the sound of "mixed" was made while joining',
    ]);
    const [mixing, ...more] = commandsOf(options.events, "mixed");
    expect(more).toEqual([]);
    expect(mixing).toMatch(/ -c copy /);
    expect(readdirSync(result.runDir).filter((name) => name.includes("sound"))).toEqual([]);
    const ahead = result.steps.mixed?.outputs as { file: string; loudness: unknown };

    await expectOwnPassAlike(
      concatOf("outputs:\n  joined: ${{ steps.joined.outputs.file }}\n"),
      ahead,
    );
  }, 120_000);

  it("joins alone when the mix keeps the clips' own sound: the film's sound is then part of it", async () => {
    writeFileSync(
      join(dir, "pipeline.yaml"),
      pipeline({ clipAudio: "{ keep: true, volume: 0.2 }" }),
    );
    const options = service.options();
    const result = await runPipeline(join(dir, "pipeline.yaml"), options);
    expect(result.status, result.error?.message).toBe("succeeded");
    expect(commandsOf(options.events, "joined")).toHaveLength(1);
    expect(commandsOf(options.events, "mixed")).toHaveLength(2);
    expect(notesOf(options.events, "joined")).toEqual([]);
  }, 120_000);
});

import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { type FfmpegTools, locateFfmpeg, measureLoudness, probe } from "@reelsmith/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";
import { startTestService, type TestService } from "./helpers/simulator.js";

const run = promisify(execFile);
const fixtures = new URL("./fixtures/", import.meta.url);

/** The scenes' lengths, their narrations' lengths and word timings, as film.yaml's inputs say. */
const LENGTHS = [2.5, 1, 3];
const NARRATION = [1.2, 0.6, 1.5];
const WORDS = [
  [0, 0.35, 0.75],
  [0, 0.25],
  [0, 0.45, 0.65],
];
/** Where each scene starts on the film. */
const STARTS = [0, 2.5, 3.5];
/** A voice-like sound: a 2 kHz tone whose loudness wobbles four times a second. */
const VOICE = "0.4*sin(2*PI*2000*t)*(0.6+0.4*sin(2*PI*4*t))";
/** Keeps the music (chords below 400 Hz) of a mix and all but removes the 2 kHz voice. */
const MUSIC_ONLY = "lowpass=f=800,lowpass=f=800,lowpass=f=800";

let tools: FfmpegTools;

async function ffmpegLog(args: string[]): Promise<string> {
  const { stderr } = await run(tools.ffmpeg.path, ["-hide_banner", ...args], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return stderr;
}

/** Where sound starts after at least 0.15 s of silence (`silencedetect`), and 0 if it starts with sound. */
async function soundStarts(file: string): Promise<number[]> {
  const log = await ffmpegLog([
    ...["-i", file, "-map", "0:a:0", "-af", "silencedetect=noise=-40dB:d=0.15"],
    ...["-f", "null", "-"],
  ]);
  const silences = [...log.matchAll(/silence_start: (-?[\d.]+)/g)].map((m) => Number(m[1]));
  const ends = [...log.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
  const { duration } = await probe(file);
  const sounding = ends.filter((end) => end < duration - 0.02);
  return (silences[0] ?? 0) > 0.01 ? [0, ...sounding] : sounding;
}

/** RMS level (dBFS) of a file's sound between two seconds, after a filter. */
async function rmsLevel(file: string, from: number, to: number, filter: string): Promise<number> {
  const chain = [`atrim=start=${from}:end=${to}`, filter, "pan=mono|c0=c0", "astats"].join(",");
  const log = await ffmpegLog(["-i", file, "-map", "0:a:0", "-af", chain, "-f", "null", "-"]);
  const match = [...log.matchAll(/RMS level dB: (-?[\d.]+|-inf)/g)].pop();
  if (!match) throw new Error(`no RMS level in:\n${log.slice(-1000)}`);
  return match[1] === "-inf" ? Number.NEGATIVE_INFINITY : Number(match[1]);
}

/** The start (seconds) and text of each `Dialogue:` event of an ASS script. */
function assEvents(text: string): { start: number; body: string }[] {
  return [...text.matchAll(/^Dialogue: \d+,(\d+):(\d+):([\d.]+),[^,]*,(?:[^,]*,){6}(.*)$/gm)].map(
    (m) => ({
      start: Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]),
      body: m[4] ?? "",
    }),
  );
}

describe("a narrated film from the storyboard's clips (npm ffmpeg 4.1)", () => {
  let service: TestService;
  let result: Awaited<ReturnType<typeof runPipeline>>;
  const outputs = (step: string) => result.steps[step]?.outputs as Record<string, unknown>;
  const fileOf = (step: string) => String(outputs(step).file);

  beforeAll(async () => {
    tools = await locateFfmpeg();
    service = await startTestService();
    const dir = join(service.root, "film");
    mkdirSync(join(dir, "narration"), { recursive: true });
    copyFileSync(new URL("film.yaml", fixtures), join(dir, "pipeline.yaml"));
    copyFileSync(new URL("music.m4a", fixtures), join(dir, "music.m4a"));
    for (const [index, seconds] of NARRATION.entries()) {
      await ffmpegLog([
        ...["-v", "error", "-f", "lavfi", "-i", `aevalsrc=${VOICE}:s=48000:d=${seconds}`],
        join(dir, "narration", `scene-${index + 1}.wav`),
      ]);
    }
    result = await runPipeline(join(dir, "pipeline.yaml"), service.options());
    // A whole film through ffmpeg (two loudness passes, captions, two reframes): minutes on a
    // loaded machine, not seconds.
  }, 600_000);
  afterAll(() => service.close());

  it("runs every step", () => {
    expect(result.status).toBe("succeeded");
    const steps = ["fitted", "joined", "voice", "mixed", "captioned", "vertical", "square"];
    for (const step of [...steps, "vertical_captioned"])
      expect(result.steps[step]?.status, step).toBe("succeeded");
  });

  it("fits each clip to its scene's length, to the frame, cutting or holding", async () => {
    const fitted = result.steps.fitted?.outputs as {
      file: string;
      duration: number;
      action: string;
    }[];
    expect(fitted.map((clip) => clip.action)).toEqual(["held", "trimmed", "held"]);
    for (const [index, clip] of fitted.entries()) {
      const info = await probe(clip.file);
      const frame = 1 / info.fps;
      expect(Math.abs((info.videoDuration ?? 0) - (LENGTHS[index] ?? 0))).toBeLessThanOrEqual(
        frame,
      );
      expect(clip.duration).toBeCloseTo(info.videoDuration ?? 0, 3);
    }
  });

  it("starts each narration within 0.1 s of its scene's start (silencedetect)", async () => {
    const voice = await probe(fileOf("voice"));
    expect(voice.hasAudio).toBe(true);
    const starts = await soundStarts(fileOf("voice"));
    expect(starts).toHaveLength(3);
    starts.forEach((start, index) => {
      expect(Math.abs(start - (STARTS[index] ?? -1))).toBeLessThanOrEqual(0.1);
    });
  });

  it("mixes a film as long as its video, with sound, at -14 LUFS ±1, the music ducked under the voice", async () => {
    const joined = await probe(fileOf("joined"));
    const mixed = await probe(fileOf("mixed"));
    expect(mixed.hasAudio).toBe(true);
    expect(Math.abs((mixed.videoDuration ?? 0) - (joined.videoDuration ?? 0))).toBeLessThan(0.001);
    expect(Math.abs(mixed.duration - (joined.videoDuration ?? 0))).toBeLessThanOrEqual(0.1);
    const loudness = await measureLoudness(fileOf("mixed"));
    expect(Math.abs(loudness.integrated + 14)).toBeLessThanOrEqual(1);
    const reported = outputs("mixed").loudness as { integrated: number };
    expect(Math.abs(reported.integrated + 14)).toBeLessThanOrEqual(1);
    // The same chord's level: under scene 3's voice (3.5–5.0 s), and after it (release 0.3 s).
    const under = await rmsLevel(fileOf("mixed"), 3.7, 4.15, MUSIC_ONLY);
    const between = await rmsLevel(fileOf("mixed"), 5.4, 5.65, MUSIC_ONLY);
    expect(between - under).toBeGreaterThanOrEqual(8);
  });

  it("burns the words in, one ASS event from each word's time on the film, that word highlighted", async () => {
    const captioned = await probe(fileOf("captioned"));
    const mixed = await probe(fileOf("mixed"));
    expect(captioned.hasAudio).toBe(true);
    expect(Math.abs((captioned.videoDuration ?? 0) - (mixed.videoDuration ?? 0))).toBeLessThan(
      1 / captioned.fps,
    );
    const ass = String(outputs("captioned").ass);
    expect(ass).toBe(fileOf("captioned").replace(/\.mp4$/, ".ass"));
    const events = assEvents(readFileSync(ass, "utf8"));
    const expected = WORDS.flatMap((starts, scene) =>
      starts.map((start) => (STARTS[scene] ?? 0) + start),
    );
    expect(events.map((event) => event.start)).toEqual(
      expected.map((start) => Math.round(start * 100) / 100),
    );
    // The event starting with "fox" (scene 1's second word) colours "fox".
    expect(events[1]?.body).toMatch(/^The \{\\c&H00D5FF&\}fox\{\\c&HFFFFFF&\} wakes$/);
    expect(outputs("captioned").missing).toEqual([]);
  });

  it("reframes the film to 9:16 and 1:1 at the asked sizes, the same length to the frame, captioned for the tall frame", async () => {
    const wide = await probe(fileOf("captioned"));
    const tall = await probe(fileOf("vertical"));
    const tallCaptioned = await probe(fileOf("vertical_captioned"));
    const square = await probe(fileOf("square"));
    // 720x480 at 9:16 keeps its shorter side: 480 wide, 480 × 16/9 = 853.3 → 854 high (even).
    expect([tall.width, tall.height]).toEqual([480, 854]);
    expect([tallCaptioned.width, tallCaptioned.height]).toEqual([480, 854]);
    expect([square.width, square.height]).toEqual([480, 480]);
    for (const reframed of [tall, tallCaptioned, square]) {
      expect(reframed.hasAudio).toBe(true);
      expect(Math.abs((reframed.videoDuration ?? 0) - (wide.videoDuration ?? 0))).toBeLessThan(
        1 / wide.fps,
      );
    }
    // The tall film's words: laid out for 480x854, at the same times; in pop mode later words are hidden.
    const script = readFileSync(String(outputs("vertical_captioned").ass), "utf8");
    expect(script).toMatch(/PlayResX: 480\s+PlayResY: 854/);
    const events = assEvents(script);
    expect(events.map((event) => event.start)).toEqual(
      assEvents(readFileSync(String(outputs("captioned").ass), "utf8")).map((event) => event.start),
    );
    expect(events[0]?.body).toBe("The {\\alpha&HFF&}fox wakes");
    expect(result.outputs.tall).toBe(fileOf("vertical_captioned"));
  });
});

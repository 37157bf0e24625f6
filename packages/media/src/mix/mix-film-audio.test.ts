import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { rmsLevel, soundStarts } from "../../test/measure.js";
import { MixInputError } from "../errors/mix-input-error.js";
import { type FfmpegTools, locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { probe } from "../probe/probe.js";
import { runFfmpeg } from "../process/run-ffmpeg.js";
import { synthesizeClip } from "../synthesize/synthesize-clip.js";
import { measureLoudness } from "./measure-loudness.js";
import { mixFilmAudio, mixFilmSound } from "./mix-film-audio.js";

const work = useTempDirectory();
const file = (name: string) => path.join(work(), name);
let tools: FfmpegTools;
let film: string;
let first: string;
let second: string;
let music: string;
/** A voice-like sound: a 2 kHz tone whose loudness wobbles four times a second. */
const voice = "0.4*sin(2*PI*2000*t)*(0.6+0.4*sin(2*PI*4*t))";
/** Keeps the 200 Hz music of a mix and all but removes the 2 kHz voice. */
const musicOnly = "lowpass=f=400,lowpass=f=400,lowpass=f=400";

async function sound(name: string, expression: string, seconds: number): Promise<string> {
  const output = file(name);
  await runFfmpeg(tools, [
    ...["-f", "lavfi", "-i", `aevalsrc=${expression}:s=48000:d=${seconds}`, output],
  ]);
  return output;
}

beforeAll(async () => {
  tools = await locateFfmpeg();
  ({ output: film } = await synthesizeClip({
    output: file("film.mp4"),
    seconds: 8,
    size: "160x90",
    text: "film",
  }));
  // One sentence of 1.2 s; then two sentences of 1 s with a 0.6 s pause between them.
  first = await sound("first.wav", voice, 1.2);
  second = await sound("second.wav", `${voice}*lt(mod(t\\,1.6)\\,1.0)`, 2.6);
  // Three seconds of a 200 Hz tone (a whole number of periods: it loops without a click).
  music = await sound("music.wav", "0.3*sin(2*PI*200*t)", 3);
});

describe("mixFilmAudio", () => {
  it("starts each narration where it is asked, on a film as long as the video", async () => {
    const { output, info, loudness } = await mixFilmAudio({
      video: film,
      output: file("narration.mp4"),
      narration: [
        { file: first, at: 0.5 },
        { file: second, at: 4 },
      ],
      clipAudio: { keep: false },
      loudness: { integrated: -23 },
    });
    const starts = await soundStarts(tools, output, { noise: "-45dB", minSilence: 0.2 });
    const asked = [0.5, 4, 5.6];
    expect(starts).toHaveLength(asked.length);
    starts.forEach((start, index) => {
      expect(Math.abs(start - (asked[index] ?? 0))).toBeLessThan(0.1);
    });
    // Normalising moved it (from about -13 LUFS, the broadcast target) onto the target.
    const after = await measureLoudness(output);
    expect(Math.abs((loudness?.measured.integrated ?? 0) - -23)).toBeGreaterThan(5);
    expect(Math.abs(after.integrated - -23)).toBeLessThanOrEqual(1);
    const source = await probe(film);
    expect(Math.abs((info.videoDuration ?? 0) - (source.videoDuration ?? 0))).toBeLessThan(0.001);
    expect(Math.abs((info.audioDuration ?? 0) - (source.videoDuration ?? 0))).toBeLessThan(0.05);
  });

  it("ducks the music under the voice and meets the loudness target", async () => {
    const percents: number[] = [];
    const result = await mixFilmAudio({
      onProgress: ({ percent }) => percents.push(percent),
      video: film,
      output: file("mixed.mp4"),
      narration: [
        { file: first, at: 0.5 },
        { file: second, at: 4 },
      ],
      music: { file: music, volume: 0.8, fadeIn: 0.2, fadeOut: 0.5 },
      clipAudio: { keep: false },
      loudness: { integrated: -14, truePeak: -1.5 },
    });
    const under = [
      await rmsLevel(tools, result.output, 0.8, 1.5, musicOnly),
      await rmsLevel(tools, result.output, 4.3, 4.9, musicOnly),
    ];
    const between = await rmsLevel(tools, result.output, 2.4, 3.8, musicOnly);
    for (const level of under) expect(between - level).toBeGreaterThanOrEqual(8);
    const loudness = await measureLoudness(result.output);
    expect(Math.abs(loudness.integrated - -14)).toBeLessThanOrEqual(1);
    expect(result.loudness?.measured.integrated).toBeLessThan(-14);
    // Both passes report into one rising percentage that ends at 100.
    expect(percents.length).toBeGreaterThan(1);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
    const source = await probe(film);
    expect(Math.abs((result.info.duration ?? 0) - source.duration)).toBeLessThan(0.05);
  });

  it("keeps the clips' sound at the asked level, or drops it", async () => {
    const at = async (volume: number | undefined, keep = true) => {
      const { output } = await mixFilmAudio({
        video: film,
        output: file(`clips-${volume}-${keep}.mp4`),
        narration: [],
        clipAudio: { keep, ...(volume === undefined ? {} : { volume }) },
        music: { file: music, volume: 0 },
      });
      return rmsLevel(tools, output, 1, 3);
    };
    const original = await rmsLevel(tools, film, 1, 3);
    expect(Math.abs((await at(undefined)) - original)).toBeLessThan(0.5);
    expect(Math.abs((await at(0.5)) - (original - 6.02))).toBeLessThan(0.5);
    expect(await at(1, false)).toBeLessThan(-80);
  });

  it("refuses a narration that starts after the film ends, before running ffmpeg", async () => {
    const error = await mixFilmAudio({
      video: film,
      output: file("never.mp4"),
      narration: [{ file: first, at: 9 }],
      clipAudio: { keep: true },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MixInputError);
    expect(error).toMatchObject({ code: "invalid_mix", option: "narration", index: 0 });
    expect((error as Error).message).toMatch(/within the film \(0 to 8\.000\); got 9/);
  });

  it("copies a sound made ahead beside the picture: the very packets of its own mix", async () => {
    const parts = {
      narration: [
        { file: first, at: 0.5 },
        { file: second, at: 4 },
      ],
      music: { file: music, volume: 0.8, fadeIn: 0.2, fadeOut: 0.5 },
      loudness: { integrated: -14, truePeak: -1.5 },
    };
    const mixed = await mixFilmAudio({
      ...parts,
      video: film,
      output: file("own.mp4"),
      clipAudio: { keep: false },
    });
    const source = await probe(film);
    const seconds = source.videoDuration ?? source.duration;
    const percents: number[] = [];
    const sound = await mixFilmSound({
      ...parts,
      seconds,
      output: file("sound.m4a"),
      onProgress: ({ percent }) => percents.push(percent),
    });
    expect(sound).toMatchObject({ output: file("sound.m4a"), seconds });
    expect(percents.at(-1)).toBe(100);
    const alone = await probe(sound.output);
    expect(alone).toMatchObject({ hasVideo: false, hasAudio: true, audioCodec: "aac" });
    expect(Math.abs((alone.audioDuration ?? 0) - seconds)).toBeLessThan(0.05);
    // Its narration, music and loudness are not read again: the sound is taken as it is.
    const muxed = await mixFilmAudio({
      video: film,
      output: file("ahead.mp4"),
      narration: [],
      clipAudio: { keep: false },
      sound,
    });
    expect(muxed.loudness).toEqual(mixed.loudness);
    expect(muxed.info).toMatchObject({ width: 160, height: 90, hasAudio: true });
    // Every packet of both streams, as the files hold them.
    const packets = async (output: string) => {
      const sum = `${output}.md5`;
      await runFfmpeg(tools, ["-i", output, "-map", "0", "-c", "copy", "-f", "md5", sum]);
      return (await readFile(sum, "utf8")).trim();
    };
    expect(await packets(muxed.output)).toMatch(/^MD5=[0-9a-f]{32}$/);
    expect(await packets(muxed.output)).toBe(await packets(mixed.output));
  });

  it("refuses a sound made for another length, or with the clips' sound to keep", async () => {
    const sound = await mixFilmSound({
      narration: [{ file: first, at: 0.5 }],
      seconds: 5,
      output: file("short.m4a"),
    });
    const longer = await mixFilmAudio({
      video: film,
      output: file("never-longer.mp4"),
      narration: [],
      clipAudio: { keep: false },
      sound,
    }).catch((caught: unknown) => caught);
    expect(longer).toMatchObject({ code: "invalid_mix", option: "sound" });
    expect((longer as Error).message).toMatch(
      /made for 5\.000000 s to go with a picture that long; .*film\.mp4 lasts 8\.000000 s/,
    );
    const keep = await mixFilmAudio({
      video: film,
      output: file("never-keep.mp4"),
      narration: [],
      clipAudio: { keep: true },
      sound: { ...sound, seconds: 8 },
    }).catch((caught: unknown) => caught);
    expect(keep).toMatchObject({ code: "invalid_mix", option: "sound" });
    const none = await mixFilmSound({ narration: [], seconds: 0, output: file("none.m4a") }).catch(
      (caught: unknown) => caught,
    );
    expect(none).toMatchObject({ code: "invalid_mix", option: "seconds" });
  });
});

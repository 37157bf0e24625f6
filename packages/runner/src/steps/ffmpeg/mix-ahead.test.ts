import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KnownProbe, MediaInfo } from "@reelsmith/media";
import { afterEach, describe, expect, it } from "vitest";
import type { MadeAheadStore } from "./captions-ahead.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";
import { keepSoundAhead, takeSoundAhead } from "./mix-ahead.js";
import type { SoleReader } from "./sole-reader.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const request = {
  mix: "joined.mp4",
  narration: ["one.wav"],
  clip_audio: { keep: false },
  output: "mixed.mp4",
} as FfmpegStepSpec;

/** A joined film of `seconds` and a sound made for a film of `planned` seconds. */
async function made(planned: number, seconds: number) {
  const dir = mkdtempSync(join(tmpdir(), "mix-ahead-"));
  dirs.push(dir);
  const video = join(dir, "joined.mp4");
  const sound = join(dir, ".mixed.mp4.sound.m4a");
  const output = join(dir, "mixed.mp4");
  writeFileSync(video, "joined");
  writeFileSync(sound, "sound");
  const written = await stat(video);
  const probe: KnownProbe = {
    file: video,
    size: written.size,
    mtimeMs: written.mtimeMs,
    info: { videoDuration: seconds, duration: seconds } as MediaInfo,
  };
  const reader: SoleReader = { step: "mixed", request, output, intermediate: true };
  return { video, output, probe, reader, sound: { output: sound, seconds: planned } };
}

describe("a mix's sound made while its film was joined", () => {
  it("is kept for a film of the length it was made for, and taken once", async () => {
    const store: MadeAheadStore = new Map();
    const film = await made(13.666667, 13.666667);
    expect(await keepSoundAhead(store, film.reader, film.sound, film.probe)).toBe(true);
    expect(await takeSoundAhead(store, { ...request }, film.video, film.output)).toEqual(
      film.sound,
    );
    expect(await takeSoundAhead(store, request, film.video, film.output)).toBeUndefined();
  });

  it("is removed when the film is not the length planned", async () => {
    const store: MadeAheadStore = new Map();
    const film = await made(13.666667, 13.708333);
    expect(await keepSoundAhead(store, film.reader, film.sound, film.probe)).toBe(false);
    expect(store.size).toBe(0);
    expect(existsSync(film.sound.output)).toBe(false);
  });

  it("is not taken (and is removed) for another request, or a film changed since", async () => {
    const store: MadeAheadStore = new Map();
    const other = await made(4, 4);
    await keepSoundAhead(store, other.reader, other.sound, other.probe);
    const louder = { ...request, loudness: { integrated: -14 } } as FfmpegStepSpec;
    expect(await takeSoundAhead(store, louder, other.video, other.output)).toBeUndefined();
    expect(existsSync(other.sound.output)).toBe(false);
    const changed = await made(4, 4);
    await keepSoundAhead(store, changed.reader, changed.sound, changed.probe);
    writeFileSync(changed.video, "joined again, longer");
    expect(await takeSoundAhead(store, request, changed.video, changed.output)).toBeUndefined();
    expect(existsSync(changed.sound.output)).toBe(false);
  });

  it("is removed when no entry names it: a stopped session's sound, met on resume", async () => {
    const film = await made(4, 4);
    expect(existsSync(film.sound.output)).toBe(true);
    expect(await takeSoundAhead(new Map(), request, film.video, film.output)).toBeUndefined();
    expect(existsSync(film.sound.output)).toBe(false);
  });

  it("belongs to the run that made it: without a store nothing is kept", async () => {
    const film = await made(4, 4);
    expect(await keepSoundAhead(undefined, film.reader, film.sound, film.probe)).toBe(false);
    expect(await takeSoundAhead(undefined, request, film.video, film.output)).toBeUndefined();
  });
});

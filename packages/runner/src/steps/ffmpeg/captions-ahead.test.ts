import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MediaInfo } from "@reelsmith/media";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CaptionsReader,
  keepMadeAhead,
  type MadeAheadStore,
  takeMadeAhead,
} from "./captions-ahead.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";

const dirs: string[] = [];
/** The store of the run these tests play (a run's, from `RunServices.madeAhead`). */
let run: MadeAheadStore = new Map();
afterEach(() => {
  run = new Map();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A reframed file and its reader's captioned file, as a pass made them both. */
async function madeBoth(request: FfmpegStepSpec, store: MadeAheadStore = run) {
  const dir = mkdtempSync(join(tmpdir(), "captions-ahead-"));
  dirs.push(dir);
  const video = join(dir, "tall.mp4");
  const output = join(dir, "final-9x16.mp4");
  writeFileSync(video, "reframed");
  writeFileSync(output, "captioned");
  const reader: CaptionsReader = { step: "tall", request, output, intermediate: false };
  const info = { width: 480, height: 854 } as MediaInfo;
  await keepMadeAhead(store, reader, { video, info, script: "[Script Info]\n", missing: ["☃"] });
  return { video, output };
}

describe("a captions step's file made ahead", () => {
  const request = { captions: "tall.mp4", words: [[]], output: "final-9x16.mp4" };

  it("is taken once, for the very request it was made for", async () => {
    const { video, output } = await madeBoth(request);
    const ahead = await takeMadeAhead(run, { ...request }, video, output);
    expect(ahead?.probe).toMatchObject({ file: output, info: { width: 480, height: 854 } });
    expect(ahead?.ass).toBe(output.replace(/\.mp4$/, ".ass"));
    expect(ahead?.missing).toEqual(["☃"]);
    expect(await takeMadeAhead(run, request, video, output)).toBeUndefined();
  });

  it("is not taken for another request (a retake's), another input, or a file changed since", async () => {
    const other = await madeBoth(request);
    const retake = { ...request, style: { preset: "subtitle" } } as FfmpegStepSpec;
    expect(await takeMadeAhead(run, retake, other.video, other.output)).toBeUndefined();
    const moved = await madeBoth(request);
    expect(await takeMadeAhead(run, request, other.video, moved.output)).toBeUndefined();
    const changed = await madeBoth(request);
    writeFileSync(changed.video, "reframed again, longer");
    expect(await takeMadeAhead(run, request, changed.video, changed.output)).toBeUndefined();
  });

  it("belongs to the run that made it: another run, or none, does not take it", async () => {
    const { video, output } = await madeBoth(request);
    const other: MadeAheadStore = new Map();
    expect(await takeMadeAhead(other, request, video, output)).toBeUndefined();
    expect(await takeMadeAhead(undefined, request, video, output)).toBeUndefined();
    // Still there for its own run, which then takes it once.
    expect(await takeMadeAhead(run, request, video, output)).toBeDefined();
    expect(run.size).toBe(0);
  });
});

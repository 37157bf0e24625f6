import { chmod, readFile, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { concat } from "../concat/concat.js";
import { type FfmpegTools, locateFfmpeg } from "../locate/locate-ffmpeg.js";
import { synthesizeClip } from "../synthesize/synthesize-clip.js";
import { type KnownProbe, probeKnown, probeUnlessKnown } from "./known-probe.js";

const work = useTempDirectory();

/** The located tools with ffprobe behind a script that counts its runs (the real ffprobe runs). */
async function countingTools(): Promise<{ tools: FfmpegTools; runs: () => Promise<number> }> {
  const tools = await locateFfmpeg();
  const log = path.join(work(), "ffprobe-runs.log");
  const script = path.join(work(), "counting-ffprobe.sh");
  await writeFile(log, "");
  await writeFile(script, `#!/bin/sh\necho run >> '${log}'\nexec '${tools.ffprobe.path}' "$@"\n`);
  await chmod(script, 0o755);
  return {
    tools: { ...tools, ffprobe: { ...tools.ffprobe, path: script } },
    runs: async () => (await readFile(log, "utf8")).split("\n").filter(Boolean).length,
  };
}

describe("known probes", () => {
  it("concat probes no clip it is given a probe for: only the output is probed", async () => {
    const clips = await Promise.all(
      ["a", "b", "c"].map(async (name) => {
        const { output } = await synthesizeClip({
          output: path.join(work(), `${name}.mp4`),
          seconds: 1,
          size: "320x240",
          text: name,
        });
        return output;
      }),
    );
    const known = await Promise.all(clips.map((clip) => probeKnown(clip)));
    expect(known[0]?.info.hasVideo).toBe(true);

    const { tools, runs } = await countingTools();
    const result = await concat(clips, {
      output: path.join(work(), "joined.mp4"),
      tools,
      probes: known,
    });
    expect(result.method).toBe("copy");
    expect(await runs()).toBe(1); // the verification of the output
    expect(result.probe.file).toBe(result.output);
    expect(result.probe.info.duration).toBeCloseTo(3, 1);
    // The output's probe is itself a known probe: reading it again costs no ffprobe run.
    expect(await probeUnlessKnown(result.output, [result.probe], { tools })).toBe(
      result.probe.info,
    );
    expect(await runs()).toBe(1);

    // Without probes every clip is probed; a clip changed since its probe is probed again.
    await concat(clips, { output: path.join(work(), "joined-2.mp4"), tools });
    expect(await runs()).toBe(1 + 4);
    await utimes(clips[1] as string, new Date(), new Date(Date.now() + 5000));
    await concat(clips, { output: path.join(work(), "joined-3.mp4"), tools, probes: known });
    expect(await runs()).toBe(5 + 2);
  });

  it("finds each clip's probe among many, by absolute path, past a stale probe of the same file", async () => {
    const clips = await Promise.all(
      ["d", "e"].map(async (name) => {
        const { output } = await synthesizeClip({
          output: path.join(work(), `${name}.mp4`),
          seconds: 1,
          size: "320x240",
          text: name,
        });
        return output;
      }),
    );
    const known = await Promise.all(clips.map((clip) => probeKnown(clip)));
    const [first, second] = known as [KnownProbe, KnownProbe];
    // Probes of other files, a stale probe of the first clip (another size) before its
    // current one, and the second clip's probe named by a relative path.
    const others = Array.from({ length: 50 }, (_, index) => ({
      ...first,
      file: path.join(work(), `other-${index}.mp4`),
    }));
    const stale = { ...first, size: first.size + 1, info: { ...first.info, duration: 99 } };
    const relative = { ...second, file: path.relative(process.cwd(), second.file) };
    const probes = [...others, stale, first, relative];

    const { tools, runs } = await countingTools();
    const result = await concat(clips, {
      output: path.join(work(), "joined-4.mp4"),
      tools,
      probes,
    });
    expect(await runs()).toBe(1); // the verification of the output only
    expect(result.info.duration).toBeCloseTo(2, 1);
    expect(await probeUnlessKnown(clips[0] as string, probes, { tools })).toBe(first.info);
    expect(await probeUnlessKnown(clips[1] as string, probes, { tools })).toBe(second.info);
    // Only the stale probe of a file: it is probed again.
    await probeUnlessKnown(clips[0] as string, [stale], { tools });
    expect(await runs()).toBe(2);
  });
});

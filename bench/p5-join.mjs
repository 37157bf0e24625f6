// P5: joining 12 identical 8 s 720p clips with @reelsmith/media's concat — given the probes
// made when the clips were downloaded, as the runner does — vs `ffmpeg -f concat -c copy`
// alone, same ffmpeg, alternating rounds. Only media's public exports are used.
//   node bench/p5-join.mjs [--clips=12] [--seconds=8] [--size=1280x720] [--rounds=5]
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { alternate, benchOptions, builtPackage, now, report, smoke, timeProcess } from "./lib.mjs";

const {
  clips: count,
  rounds,
  seconds,
  size,
} = benchOptions(
  { clips: 12, rounds: 5, seconds: 8, size: "1280x720" },
  { clips: 2, rounds: 1, seconds: 1, size: "320x240" },
);
const media = await builtPackage("media");
const { synthesizeClip } = await builtPackage("media", "dist/synthesize-entry.js");
/** One line of ffmpeg's concat list: the path single-quoted, a quote written `'\''`. */
const concatListLine = (file) => `file '${file.replaceAll("'", "'\\''")}'`;
const tools = await media.locateFfmpeg();
const work = await mkdtemp(path.join(tmpdir(), "reelsmith-bench-p5-"));
try {
  const first = path.join(work, "clip-0.mp4");
  await synthesizeClip({
    output: first,
    seconds,
    size,
    fps: 24,
    text: "clip",
  });
  const clips = [first];
  for (let i = 1; i < count; i++) {
    const clip = path.join(work, `clip-${i}.mp4`);
    await copyFile(first, clip);
    clips.push(clip);
  }
  // What the runner keeps from each download.
  const probes = await Promise.all(clips.map((clip) => media.probeKnown(clip, { tools })));
  const list = path.join(work, "list.txt");
  // The baseline's own list, as a user of plain ffmpeg writes it (media quotes its own).
  await writeFile(list, clips.map((clip) => `${concatListLine(clip)}\n`).join(""));
  let n = 0;
  const ours = async () => {
    const started = now();
    const result = await media.concat(clips, {
      output: path.join(work, `ours-${n++}.mp4`),
      tools,
      probes,
    });
    if (result.method !== "copy") throw new Error(`expected a copy join, got ${result.method}`);
    return now() - started;
  };
  const baseline = () =>
    timeProcess(tools.ffmpeg.path, [
      "-nostdin",
      "-y",
      "-loglevel",
      "error",
      "-f",
      "concat",
      "-safe",
      "0",
      "-i",
      list,
      "-c",
      "copy",
      path.join(work, `plain-${n++}.mp4`),
    ]);
  const withProbes = await alternate(rounds, ours, baseline);
  const unknown = async () => {
    const started = now();
    await media.concat(clips, { output: path.join(work, `cold-${n++}.mp4`), tools });
    return now() - started;
  };
  const cold = await alternate(
    smoke ? rounds : Math.max(3, Math.floor(rounds / 2)),
    unknown,
    baseline,
  );
  report([
    {
      id: "P5",
      measure: `join ${count} identical ${seconds} s ${size} clips (probes kept from download) vs ffmpeg -f concat -c copy [ffmpeg ${tools.ffmpeg.version.split(" ")[0]}]`,
      ours: `${withProbes.ours.toFixed(0)} ms`,
      baseline: `${withProbes.baseline.toFixed(0)} ms`,
      ratio: withProbes.ratio,
      goal: 1.2,
    },
    {
      id: "P5-",
      measure: `same join with no known probes (${count} + 1 ffprobe runs), for comparison`,
      ours: `${cold.ours.toFixed(0)} ms`,
      baseline: `${cold.baseline.toFixed(0)} ms`,
      ratio: cold.ratio,
      goal: null,
    },
  ]);
} finally {
  await rm(work, { recursive: true, force: true });
}

// Benchmark of @reelsmith/media's concat (build the package first: pnpm turbo run build --filter=@reelsmith/media).
//
//   node bench/concat-bench.mjs [--clips 12] [--seconds 8] [--size 1280x720] [--runs 3] [--mixed 12]
//
// 1. `concat` of N identical clips (stream copy) against a plain `ffmpeg -f concat -c copy`
//    of the same clips with the same binary, alternating, `--runs` times each.
// 2. A normalising `concat` of `--mixed` clips of mixed size, rate and audio.
// Work files live in a temp directory that is removed afterwards.
import { spawn } from "node:child_process";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { concat, concatListLine, locateFfmpeg, probe } from "../dist/index.js";
import { synthesizeClip } from "../dist/synthesize-entry.js";

const { values } = parseArgs({
  options: {
    clips: { type: "string", default: "12" },
    seconds: { type: "string", default: "8" },
    size: { type: "string", default: "1280x720" },
    runs: { type: "string", default: "3" },
    mixed: { type: "string", default: "12" },
  },
});
const clipCount = Number(values.clips);
const seconds = Number(values.seconds);
const runs = Number(values.runs);
const mixedCount = Number(values.mixed);

const tools = await locateFfmpeg();
const work = await mkdtemp(path.join(tmpdir(), "reelsmith-media-bench-"));
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const ms = (value) => `${value.toFixed(0)} ms`;

async function timed(run) {
  const start = performance.now();
  const result = await run();
  return { ms: performance.now() - start, result };
}

function plainCopy(list, output) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      tools.ffmpeg.path,
      [
        "-hide_banner",
        "-nostdin",
        "-y",
        "-v",
        "error",
        "-f",
        "concat",
        "-safe",
        "0",
        "-i",
        list,
        "-c",
        "copy",
        output,
      ],
      { stdio: "ignore" },
    );
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}`)),
    );
  });
}

try {
  console.log(`ffmpeg ${tools.ffmpeg.version} (${tools.ffmpeg.source}: ${tools.ffmpeg.path})`);
  console.log(`ffprobe ${tools.ffprobe.version} (${tools.ffprobe.source})`);

  const made = await timed(() =>
    synthesizeClip({
      output: path.join(work, "clip-00.mp4"),
      seconds,
      size: values.size,
      fps: 24,
      text: "Benchmark clip",
    }),
  );
  console.log(`synthesizeClip ${seconds} s ${values.size}: ${ms(made.ms)}`);
  const clips = [made.result.output];
  for (let index = 1; index < clipCount; index++) {
    const copy = path.join(work, `clip-${String(index).padStart(2, "0")}.mp4`);
    await copyFile(made.result.output, copy);
    clips.push(copy);
  }
  const list = path.join(work, "list.txt");
  await writeFile(list, `${clips.map(concatListLine).join("\n")}\n`);

  const probes = await timed(() => Promise.all(clips.map((clip) => probe(clip))));
  console.log(`probe of ${clipCount} clips (parallel): ${ms(probes.ms)}`);

  const plainTimes = [];
  const concatTimes = [];
  let method = "";
  let duration = 0;
  for (let run = 0; run < runs; run++) {
    plainTimes.push((await timed(() => plainCopy(list, path.join(work, "plain.mp4")))).ms);
    const ours = await timed(() => concat(clips, { output: path.join(work, "ours.mp4") }));
    concatTimes.push(ours.ms);
    method = ours.result.method;
    duration = ours.result.info.duration;
  }
  console.log(`\n${clipCount} identical ${seconds} s ${values.size} clips, ${runs} runs each:`);
  console.log(
    `  plain ffmpeg -f concat -c copy: ${plainTimes.map(ms).join(", ")} (median ${ms(median(plainTimes))})`,
  );
  console.log(
    `  concat() [${method}]:            ${concatTimes.map(ms).join(", ")} (median ${ms(median(concatTimes))}); output ${duration.toFixed(3)} s`,
  );

  if (mixedCount > 0) {
    const shapes = [
      { size: "1280x720", fps: 24, silent: false },
      { size: "720x1280", fps: 30, silent: false },
      { size: "854x480", fps: 24, silent: true },
    ];
    const mixed = [];
    for (let index = 0; index < mixedCount; index++) {
      const shape = shapes[index % shapes.length];
      const output = path.join(work, `mixed-${index}.mp4`);
      await synthesizeClip({
        output,
        seconds,
        size: shape.size,
        fps: shape.fps,
        text: `Mixed ${index}`,
      });
      if (shape.silent) {
        const silent = path.join(work, `mixed-${index}-silent.mp4`);
        await new Promise((resolve, reject) => {
          const child = spawn(
            tools.ffmpeg.path,
            ["-v", "error", "-y", "-i", output, "-map", "0:v", "-c", "copy", silent],
            { stdio: "ignore" },
          );
          child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
        });
        mixed.push(silent);
      } else {
        mixed.push(output);
      }
    }
    const normalised = await timed(() =>
      concat(mixed, { output: path.join(work, "mixed.mp4"), size: "1280x720", fps: 30 }),
    );
    console.log(
      `\nnormalising concat of ${mixedCount} mixed ${seconds} s clips (1280x720@24, 720x1280@30, 854x480@24 silent) to 1280x720@30:`,
    );
    console.log(
      `  ${ms(normalised.ms)} [${normalised.result.method}]; output ${normalised.result.info.duration.toFixed(3)} s, ${(normalised.result.info.duration / (normalised.ms / 1000)).toFixed(1)}x realtime`,
    );
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

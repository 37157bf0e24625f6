// Benchmark of transition joins (build the package first: pnpm turbo run build --filter=@reelsmith/media).
//
//   node bench/transition-bench.mjs [--counts 4,12,24] [--seconds 4] [--size 854x480] [--duration 0.5]
//
// For each clip count: a crossfade join of that many synthetic clips with the ffmpeg that
// locateFfmpeg finds (xfade when it has it, else fade + overlay; FFMPEG_PATH/FFPROBE_PATH
// choose), the wall time, the output's duration against sum − (n−1)·d, and ffmpeg's peak
// resident memory (VmHWM, sampled from /proc every 20 ms: Linux only, "n/a" elsewhere).
// With `--engines both` on an ffmpeg that has xfade, the fallback is measured too.
// Work files live in a temp directory that is removed afterwards.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { concat, locateFfmpeg } from "../dist/index.js";
import { synthesizeClip } from "../dist/synthesize-entry.js";

const { values } = parseArgs({
  options: {
    counts: { type: "string", default: "4,12,24" },
    seconds: { type: "string", default: "4" },
    size: { type: "string", default: "854x480" },
    duration: { type: "string", default: "0.5" },
    engines: { type: "string", default: "found" },
  },
});
const counts = values.counts.split(",").map(Number);
const seconds = Number(values.seconds);
const overlap = Number(values.duration);

const found = await locateFfmpeg();
const engines = [found.capabilities.xfade ? "xfade" : "overlay"];
if (values.engines === "both" && found.capabilities.xfade) engines.push("overlay");
const work = await mkdtemp(path.join(tmpdir(), "reelsmith-transition-bench-"));

/** Peak VmHWM (kB) of this process's ffmpeg children while `run` is pending. */
async function withPeakMemory(run) {
  let peak = 0;
  let readable = process.platform === "linux";
  const sample = async () => {
    if (!readable) return;
    try {
      for (const entry of await readdir("/proc")) {
        if (!/^\d+$/.test(entry)) continue;
        const status = await readFile(`/proc/${entry}/status`, "utf8").catch(() => "");
        if (!/^Name:\s+ffmpeg/m.test(status)) continue;
        if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
        peak = Math.max(peak, Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0));
      }
    } catch {
      readable = false;
    }
  };
  const timer = setInterval(sample, 20);
  try {
    const result = await run();
    return { result, peakKb: readable ? peak : undefined };
  } finally {
    clearInterval(timer);
  }
}

try {
  console.log(
    `ffmpeg ${found.ffmpeg.version} (${found.ffmpeg.source}), ${values.size}, ${seconds} s clips, ${overlap} s crossfades`,
  );
  const clips = [];
  for (let index = 0; index < Math.max(...counts); index++) {
    const { output } = await synthesizeClip({
      output: path.join(work, `clip-${index}.mp4`),
      seconds,
      size: values.size,
      text: `Scene ${index + 1}`,
    });
    clips.push(output);
  }
  for (const engine of engines) {
    const tools =
      engine === "overlay" && found.capabilities.xfade
        ? { ...found, capabilities: { ...found.capabilities, xfade: false } }
        : found;
    for (const count of counts) {
      const start = performance.now();
      const { result, peakKb } = await withPeakMemory(() =>
        concat(clips.slice(0, count), {
          output: path.join(work, `joined-${engine}-${count}.mp4`),
          transition: { type: "crossfade", duration: overlap },
          tools,
        }),
      );
      const elapsed = performance.now() - start;
      const expected = count * seconds - (count - 1) * overlap;
      console.log(
        `${result.method.padEnd(8)} ${String(count).padStart(3)} clips: ${(elapsed / 1000).toFixed(1)} s, ` +
          `output ${result.info.duration.toFixed(3)} s (expected ${expected.toFixed(3)}), ` +
          `ffmpeg peak RSS ${peakKb === undefined ? "n/a" : `${(peakKb / 1024).toFixed(0)} MiB`}`,
      );
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

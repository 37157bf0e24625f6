// Benchmark: a 1 GB streamed download from a loopback server into a temp file.
// Reports the client's peak heap / RSS / ArrayBuffer increase over a baseline taken just
// before the download, next to the same numbers for a plain undici → fs pipeline of the
// same bytes in the same run (what any streamed download costs), then deletes the file.
//
//   cd packages/core && npm run build (or turbo build) && node --expose-gc bench/download.mjs [bytes]
//
// The server runs in a child process (bench/loopback-server.mjs), so only the client is measured.
import { fork } from "node:child_process";
import { createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { createClient } from "../dist/index.js";

const bytes = Number(process.argv[2] ?? 1024 ** 3);
const mb = (value) => (value / 1024 ** 2).toFixed(1);

const child = fork(fileURLToPath(new URL("./loopback-server.mjs", import.meta.url)), [
  "download",
  String(bytes),
]);
const { port } = await new Promise((resolve) => child.once("message", resolve));
const reelsmith = createClient({ baseURL: `http://127.0.0.1:${port}`, apiKey: "bench-key" });
const target = join(tmpdir(), `reelsmith-bench-${process.pid}.mp4`);

/** Runs `task` while sampling memory every 20 ms; returns its result and the peaks over the baseline. */
async function measure(task) {
  globalThis.gc?.();
  const baseline = process.memoryUsage();
  const peak = { ...baseline };
  const sample = () => {
    const usage = process.memoryUsage();
    for (const key of ["heapUsed", "rss", "external", "arrayBuffers"])
      peak[key] = Math.max(peak[key], usage[key]);
  };
  const sampler = setInterval(sample, 20);
  const started = process.hrtime.bigint();
  try {
    const result = await task();
    sample();
    return {
      result,
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
      baselineHeapMB: Number(mb(baseline.heapUsed)),
      baselineRssMB: Number(mb(baseline.rss)),
      peakHeapIncreaseMB: Number(mb(peak.heapUsed - baseline.heapUsed)),
      peakRssIncreaseMB: Number(mb(peak.rss - baseline.rss)),
      peakArrayBuffersIncreaseMB: Number(mb(peak.arrayBuffers - baseline.arrayBuffers)),
    };
  } finally {
    clearInterval(sampler);
  }
}

const summary = (run, bytesDone) => ({
  seconds: Number(run.seconds.toFixed(2)),
  throughputMBps: Number((bytesDone / 1024 ** 2 / run.seconds).toFixed(1)),
  baselineHeapMB: run.baselineHeapMB,
  baselineRssMB: run.baselineRssMB,
  peakHeapIncreaseMB: run.peakHeapIncreaseMB,
  peakRssIncreaseMB: run.peakRssIncreaseMB,
  peakArrayBuffersIncreaseMB: run.peakArrayBuffersIncreaseMB,
});

try {
  // Reference: the same bytes read raw with undici and piped to a file, in this process.
  const reference = await measure(async () => {
    const response = await request(`http://127.0.0.1:${port}/v1/videos/x/content`);
    await pipeline(response.body, createWriteStream(target));
    return (await stat(target)).size;
  });
  await rm(target, { force: true });
  let progressCalls = 0;
  const client = await measure(() =>
    reelsmith.videos.downloadContent("video_bench", {
      to: target,
      onProgress: () => {
        progressCalls += 1;
      },
    }),
  );
  const size = (await stat(target)).size;
  console.log(
    JSON.stringify(
      {
        benchmark: "download",
        bytes: client.result.bytes,
        fileSize: size,
        progressCalls,
        client: summary(client, client.result.bytes),
        rawUndiciPipeline: summary(reference, reference.result),
      },
      null,
      2,
    ),
  );
  if (size !== bytes) process.exitCode = 1;
} finally {
  await rm(target, { force: true });
  child.disconnect();
}

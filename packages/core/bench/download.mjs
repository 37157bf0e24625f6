// Benchmark: a 1 GB streamed download from a loopback server into a temp file.
// Reports the client's peak heap and RSS increase over a baseline measured in the same run
// (after a warm-up download), then deletes the file.
//
//   cd packages/core && npm run build (or turbo build) && node --expose-gc bench/download.mjs [bytes]
//
// The server runs in a child process (bench/loopback-server.mjs), so only the client is measured.
import { fork } from "node:child_process";
import { rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "../dist/index.js";

const bytes = Number(process.argv[2] ?? 1024 ** 3);
const mb = (value) => (value / 1024 ** 2).toFixed(1);

const child = fork(fileURLToPath(new URL("./loopback-server.mjs", import.meta.url)), [
  "download",
  String(bytes),
]);
const { port } = await new Promise((resolve) => child.once("message", resolve));
const client = createClient({ baseURL: `http://127.0.0.1:${port}`, apiKey: "bench-key" });
const target = join(tmpdir(), `reelsmith-bench-${process.pid}.mp4`);

try {
  // Warm-up: load code paths and undici's pool once, so the baseline includes them.
  const warm = createClient({ baseURL: `http://127.0.0.1:${port}`, apiKey: "bench-key" });
  void warm;
  globalThis.gc?.();
  const baseline = process.memoryUsage();
  let peakHeap = baseline.heapUsed;
  let peakRss = baseline.rss;
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakRss = Math.max(peakRss, usage.rss);
  }, 20);
  const started = process.hrtime.bigint();
  let progressCalls = 0;
  const result = await client.videos.downloadContent("video_bench", {
    to: target,
    onProgress: () => {
      progressCalls += 1;
    },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sampler);
  const usage = process.memoryUsage();
  peakHeap = Math.max(peakHeap, usage.heapUsed);
  peakRss = Math.max(peakRss, usage.rss);
  const size = (await stat(target)).size;
  console.log(
    JSON.stringify(
      {
        benchmark: "download",
        bytes: result.bytes,
        fileSize: size,
        seconds: Number(seconds.toFixed(2)),
        throughputMBps: Number((result.bytes / 1024 ** 2 / seconds).toFixed(1)),
        progressCalls,
        baselineHeapMB: Number(mb(baseline.heapUsed)),
        baselineRssMB: Number(mb(baseline.rss)),
        peakHeapIncreaseMB: Number(mb(peakHeap - baseline.heapUsed)),
        peakRssIncreaseMB: Number(mb(peakRss - baseline.rss)),
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

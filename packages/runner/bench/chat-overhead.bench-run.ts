/**
 * Runner overhead: a 200-step chat pipeline through runPipeline versus a hand-written loop
 * making the same calls with @reelsmith/core at the same concurrency, in the same process
 * against the same simulator. Alternates the two, reports medians, writes bench/results.json.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@reelsmith/core";
import { startSimulator } from "@reelsmith/simulator";
import pLimit from "p-limit";
import { expect, it } from "vitest";
import { loadPipeline } from "../src/pipeline/index.js";
import { runPipeline } from "../src/run-pipeline.js";

const STEPS = 200;
const CONCURRENCY = 8;
const ROUNDS = 9;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(faults: string | undefined, rounds: number) {
  const simulator = await startSimulator({ timeScale: 1, ...(faults ? { faults } : {}) });
  const client = createClient({ baseURL: simulator.url, apiKey: simulator.apiKey });
  const root = mkdtempSync(join(tmpdir(), "reelsmith-bench-"));
  const prompt = (n: number) => `Step ${n}: write one sentence about the number ${n}.`;
  const pipeline = {
    name: "bench",
    defaults: { chat: { model: "reel-chat-1" } },
    steps: Array.from({ length: STEPS }, (_, n) => ({ id: `s${n}`, chat: { prompt: prompt(n) } })),
  };
  const loop = async () => {
    const limit = pLimit(CONCURRENCY);
    const texts = await Promise.all(
      Array.from({ length: STEPS }, (_, n) =>
        limit(async () => {
          const completion = await client.chat.completions.create({
            model: "reel-chat-1",
            messages: [{ role: "user", content: prompt(n) }],
          });
          return completion.choices[0]?.message.content ?? "";
        }),
      ),
    );
    return texts.length;
  };
  // Validation (loadPipeline: schema, references, positions) is part of every run; it is also
  // measured apart by running a pipeline loaded once beforehand.
  const loaded = await loadPipeline({
    source: JSON.stringify(pipeline, null, 1),
    path: "<inline>",
  });
  const runLoaded = async () => {
    const result = await runPipeline(loaded, {
      client,
      concurrency: CONCURRENCY,
      cache: false,
      runsRoot: join(root, "runs"),
    });
    if (result.status !== "succeeded") throw new Error(result.error?.message);
    return Object.keys(result.steps).length;
  };
  const runner = async () => {
    const result = await runPipeline(pipeline, {
      client,
      concurrency: CONCURRENCY,
      cache: false,
      runsRoot: join(root, "runs"),
    });
    if (result.status !== "succeeded") throw new Error(result.error?.message);
    return Object.keys(result.steps).length;
  };
  await loop(); // warm up connections and JIT
  const times = { loop: [] as number[], runner: [] as number[], runnerPreloaded: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    for (const [name, fn] of [
      ["loop", loop],
      ["runner", runner],
      ["runnerPreloaded", runLoaded],
    ] as const) {
      const started = performance.now();
      expect(await fn()).toBe(STEPS);
      times[name].push(performance.now() - started);
    }
  }
  await simulator.close();
  return {
    simulatorFaults: faults ?? "none (answers in well under a millisecond)",
    steps: STEPS,
    concurrency: CONCURRENCY,
    rounds,
    loopMs: times.loop.map(Math.round),
    runnerMs: times.runner.map(Math.round),
    loopMedianMs: Math.round(median(times.loop)),
    runnerMedianMs: Math.round(median(times.runner)),
    ratio: Number((median(times.runner) / median(times.loop)).toFixed(3)),
    // The machine is shared: the fastest round of each is the least disturbed measurement.
    loopMinMs: Math.round(Math.min(...times.loop)),
    runnerMinMs: Math.round(Math.min(...times.runner)),
    ratioOfMins: Number((Math.min(...times.runner) / Math.min(...times.loop)).toFixed(3)),
    runnerPreloadedMs: times.runnerPreloaded.map(Math.round),
    runnerPreloadedMedianMs: Math.round(median(times.runnerPreloaded)),
    preloadedRatio: Number((median(times.runnerPreloaded) / median(times.loop)).toFixed(3)),
    preloadedRatioOfMins: Number(
      (Math.min(...times.runnerPreloaded) / Math.min(...times.loop)).toFixed(3),
    ),
    load: (await import("node:os")).loadavg().map((l) => Number(l.toFixed(1))),
  };
}

it("runner vs hand-written loop, 200 chat calls", async () => {
  const instant = await measure(undefined, ROUNDS);
  // Every chat answer delayed 50 ms: closer to a real service, where the runner's own work
  // is a small share of the wall time.
  const latency50ms = await measure("slow@chat:1:50", 3);
  const summary = { node: process.version, date: new Date().toISOString(), instant, latency50ms };
  writeFileSync(join(import.meta.dirname, "results.json"), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(JSON.stringify(summary));
});

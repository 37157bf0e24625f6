// P2: a 200-step chat pipeline through the runner (validation, journal, events, expressions
// included) vs a hand-written loop over the core client at the same concurrency, against
// the simulator answering at once (same process, same simulator, alternating rounds).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { alternate, builtPackage, dependencyOf, now, report } from "./lib.mjs";

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, "").split("=")));
const steps = Number(args.steps ?? 200);
const concurrency = Number(args.concurrency ?? 8);
const rounds = Number(args.rounds ?? 7);
const { createClient } = await builtPackage("core");
const { startSimulator } = await builtPackage("simulator");
const { runPipeline } = await builtPackage("runner");
const { default: pLimit } = await dependencyOf("runner", "p-limit");

const simulator = await startSimulator({ timeScale: 1, chunkDelayMs: 0 });
const client = createClient({ baseURL: simulator.url, apiKey: simulator.apiKey });
const root = mkdtempSync(join(tmpdir(), "reelsmith-bench-p2-"));
const prompt = (n) => `Step ${n}: write one sentence about the number ${n}.`;
const pipeline = {
  name: "bench",
  defaults: { chat: { model: "reel-chat-1" } },
  steps: Array.from({ length: steps }, (_, n) => ({ id: `s${n}`, chat: { prompt: prompt(n) } })),
};

async function loop() {
  const started = now();
  const limit = pLimit(concurrency);
  const texts = await Promise.all(
    Array.from({ length: steps }, (_, n) =>
      limit(async () => {
        const completion = await client.chat.completions.create({
          model: "reel-chat-1",
          messages: [{ role: "user", content: prompt(n) }],
        });
        return completion.choices[0]?.message.content ?? "";
      }),
    ),
  );
  if (texts.length !== steps) throw new Error("loop lost answers");
  return now() - started;
}

async function runner() {
  const started = now();
  const result = await runPipeline(pipeline, {
    client,
    concurrency,
    cache: false,
    runsRoot: join(root, "runs"),
  });
  const ms = now() - started;
  if (result.status !== "succeeded" || Object.keys(result.steps).length !== steps) {
    throw new Error(`runner: ${result.status} ${result.error?.message ?? ""}`);
  }
  return ms;
}

try {
  const result = await alternate(rounds, runner, loop, { warmup: 2 });
  report([
    {
      id: "P2",
      measure: `${steps}-step chat pipeline vs core loop (concurrency ${concurrency}, instant simulator)`,
      ours: `${result.ours.toFixed(0)} ms`,
      baseline: `${result.baseline.toFixed(0)} ms`,
      ratio: result.ratio,
      goal: 1.1,
    },
  ]);
} finally {
  await simulator.close();
  rmSync(root, { recursive: true, force: true });
}

// P2: a 200-step chat pipeline through the runner (validation, journal, events, expressions
// included) against two floors at the same concurrency, against the simulator answering at
// once (same process, same simulator, rounds in rotated order):
//   bare     a hand-written loop over the core client (no journal at all);
//   durable  the same loop that also appends one synced journal line per step
//            (fs.appendFileSync + fsync of a JSON line the size of the runner's step.end
//            record): the least a durable runner must do.
// Goals: ≤ 1.1× the durable floor (P2) and ≤ 1.4× the bare one (P2b).
//   node bench/p2-runner.mjs [--steps=200] [--concurrency=8] [--rounds=9]
import {
  appendFileSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchOptions, builtPackage, dependencyOf, now, report, rotate } from "./lib.mjs";

const { steps, concurrency, rounds } = benchOptions(
  { steps: 200, concurrency: 8, rounds: 9 },
  { steps: 4, rounds: 1 },
);
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

/** The hand loop; with `journal`, each answer is appended to it and fsync'd before it counts. */
function handLoop(journal) {
  return async () => {
    let fd;
    if (journal) {
      const dir = mkdtempSync(join(root, "floor-"));
      fd = openSync(join(dir, "journal.jsonl"), "a");
    }
    const started = now();
    const limit = pLimit(concurrency);
    const texts = await Promise.all(
      Array.from({ length: steps }, (_, n) =>
        limit(async () => {
          const messages = [{ role: "user", content: prompt(n) }];
          const completion = await client.chat.completions.create({
            model: "reel-chat-1",
            messages,
          });
          const text = completion.choices[0]?.message.content ?? "";
          if (fd !== undefined) {
            const record = {
              type: "step.end",
              step: `s${n}`,
              outputs: { text, usage: completion.usage, messages },
              time: new Date().toISOString(),
            };
            appendFileSync(fd, `${JSON.stringify(record)}\n`);
            fsyncSync(fd);
          }
          return text;
        }),
      ),
    );
    const ms = now() - started;
    if (fd !== undefined) closeSync(fd);
    if (texts.length !== steps) throw new Error("loop lost answers");
    return ms;
  };
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
  mkdirSync(join(root, "runs"));
  const { medians, ratios } = await rotate(
    rounds,
    { ours: runner, bare: handLoop(false), durable: handLoop(true) },
    { warmup: 2 },
  );
  const ms = (value) => `${value.toFixed(0)} ms`;
  report([
    {
      id: "P2",
      measure: `${steps}-step chat pipeline vs durable hand loop (fsync'd line per step, concurrency ${concurrency})`,
      ours: ms(medians.ours),
      baseline: ms(medians.durable),
      ratio: ratios.durable,
      goal: 1.1,
    },
    {
      id: "P2b",
      measure: `${steps}-step chat pipeline vs bare hand loop over core (no journal)`,
      ours: ms(medians.ours),
      baseline: ms(medians.bare),
      ratio: ratios.bare,
      goal: 1.4,
    },
  ]);
} finally {
  await simulator.close();
  rmSync(root, { recursive: true, force: true });
}

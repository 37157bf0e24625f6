// P2: a 200-step chat pipeline through the runner (validation, journal, events, expressions
// included) against two floors at the same concurrency, against the simulator answering at
// once (same process, same simulator, rounds in rotated order):
//   bare     a hand-written loop over the core client (no journal at all);
//   durable  the same loop that also appends one synced journal line per step
//            (fs.appendFileSync + fsync of a JSON line the size of the runner's step.end
//            record): the least a durable runner must do, one flush per step.
//   grouped  the least a durable runner must do when it flushes steps that end together
//            at once, as the runner's journal does: a run.start line durable before the
//            first request; per step, a start and an end event line (written once a tick)
//            and its step.end line, written once a tick and fdatasync'd in groups; the slot
//            freed at the answer; the run over once every line is durable.
// Goals: ≤ 1.1× the durable floor (P2) and ≤ 1.4× the bare one (P2b). Shown: the grouped
// floor against the bare loop (P2c: what durability alone costs), and the runner against it
// (P2d: what the runner costs beyond it).
//   node bench/p2-runner.mjs [--steps=200] [--concurrency=8] [--rounds=9]
import {
  appendFileSync,
  closeSync,
  fdatasync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchOptions, builtPackage, dependencyOf, median, now, report, rotate } from "./lib.mjs";

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

/**
 * A journal whose lines are written once a tick and made durable in groups: `append` settles
 * once its line is on disk; lines appended while a flush runs share the next one.
 */
function groupedJournal(file) {
  const fd = openSync(file, "a");
  let lines = [];
  let waiting = [];
  let flushing = false;
  const flush = () => {
    if (flushing || lines.length === 0) return;
    flushing = true;
    const settle = waiting;
    writeSync(fd, lines.join(""));
    lines = [];
    waiting = [];
    fdatasync(fd, (error) => {
      flushing = false;
      for (const [resolve, reject] of settle) error ? reject(error) : resolve();
      flush();
    });
  };
  return {
    append(record) {
      lines.push(`${JSON.stringify(record)}\n`);
      return new Promise((resolve, reject) => {
        if (waiting.push([resolve, reject]) === 1) setImmediate(flush);
      });
    },
    close: () => closeSync(fd),
  };
}

/** The grouped durable floor (see the top of this file). */
async function groupedLoop() {
  const dir = mkdtempSync(join(root, "grouped-"));
  const started = now();
  const journal = groupedJournal(join(dir, "journal.jsonl"));
  const events = openSync(join(dir, "events.ndjson"), "a");
  let lines = [];
  const emit = (event) => {
    if (lines.push(JSON.stringify({ ...event, time: new Date().toISOString() })) === 1)
      setImmediate(() => {
        writeSync(events, `${lines.join("\n")}\n`);
        lines = [];
      });
  };
  await journal.append({ type: "run.start", name: pipeline.name });
  const limit = pLimit(concurrency);
  const durable = [];
  await Promise.all(
    Array.from({ length: steps }, (_, n) =>
      limit(async () => {
        const step = `s${n}`;
        emit({ type: "step.start", step });
        const messages = [{ role: "user", content: prompt(n) }];
        const completion = await client.chat.completions.create({
          model: "reel-chat-1",
          messages,
        });
        const reply = completion.choices[0]?.message;
        const outputs = {
          text: reply?.content ?? "",
          usage: completion.usage,
          messages: [...messages, reply],
        };
        durable.push(journal.append({ type: "step.end", step, outputs }));
        emit({ type: "step.end", step, outputs });
      }),
    ),
  );
  await Promise.all(durable);
  await journal.append({ type: "run.end", status: "succeeded" });
  const ms = now() - started;
  journal.close();
  closeSync(events);
  if (durable.length !== steps) throw new Error("grouped loop lost answers");
  return ms;
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
  const { medians, ratios, times } = await rotate(
    rounds,
    { ours: runner, bare: handLoop(false), durable: handLoop(true), grouped: groupedLoop },
    { warmup: 2 },
  );
  const groupedToBare = median(times.grouped.map((ms, i) => ms / times.bare[i]));
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
    {
      id: "P2c",
      measure: `grouped durable floor (one step.end line per step, flushed in groups) vs bare hand loop (shown)`,
      ours: ms(medians.grouped),
      baseline: ms(medians.bare),
      ratio: groupedToBare,
      goal: null,
    },
    {
      id: "P2d",
      measure: `${steps}-step chat pipeline vs the grouped durable floor (shown)`,
      ours: ms(medians.ours),
      baseline: ms(medians.grouped),
      ratio: ratios.grouped,
      goal: null,
    },
  ]);
} finally {
  await simulator.close();
  rmSync(root, { recursive: true, force: true });
}

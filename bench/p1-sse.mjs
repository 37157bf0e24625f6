// P1: chat SSE parse throughput through @reelsmith/core's public streaming API (each chunk
// handed to a callback by `forEachChunk`, which returns the final completion) vs a bare
// undici.request + eventsource-parser loop that JSON-parses each event. Same 100k-chunk
// loopback stream, same process, median of rounds in rotating order. P1i shows the same
// stream through the async iterator (`for await` + `finalCompletion()`).
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { benchOptions, builtPackage, dependencyOf, now, report, rotate } from "./lib.mjs";

const { chunks, rounds } = benchOptions({ chunks: 100_000, rounds: 5 }, { chunks: 200, rounds: 1 });
const { createClient } = await builtPackage("core");
const { request } = await dependencyOf("core", "undici");
const { createParser } = await dependencyOf("core", "eventsource-parser");

const server = fork(fileURLToPath(new URL("./sse-server.mjs", import.meta.url)), [String(chunks)]);
const { port, events } = await new Promise((resolve) => server.once("message", resolve));
const url = `http://127.0.0.1:${port}`;
const client = createClient({ baseURL: url, apiKey: "bench-key", streamIdleTimeoutMs: 30_000 });
const body = { model: "reel-chat-1", messages: [{ role: "user", content: "go" }], stream: true };

async function ours() {
  const started = now();
  const stream = await client.chat.completions.create({
    ...body,
    stream_options: { include_usage: true },
  });
  let count = 0;
  const completion = await stream.forEachChunk(() => {
    count++;
  });
  const ms = now() - started;
  if (count !== events - 1 || completion.usage?.completion_tokens !== chunks) {
    throw new Error(`core handed over ${count} chunks, usage ${JSON.stringify(completion.usage)}`);
  }
  return ms;
}

async function iterated() {
  const started = now();
  const stream = await client.chat.completions.create({
    ...body,
    stream_options: { include_usage: true },
  });
  let count = 0;
  for await (const _chunk of stream) count++;
  const completion = await stream.finalCompletion();
  const ms = now() - started;
  if (count !== events - 1 || completion.usage?.completion_tokens !== chunks) {
    throw new Error(`core yielded ${count} chunks, usage ${JSON.stringify(completion.usage)}`);
  }
  return ms;
}

async function baseline() {
  const started = now();
  const response = await request(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
    body: JSON.stringify(body),
  });
  let count = 0;
  const parser = createParser({
    onEvent: (event) => {
      if (event.data === "[DONE]") return;
      JSON.parse(event.data);
      count++;
    },
  });
  const decoder = new TextDecoder();
  for await (const piece of response.body) parser.feed(decoder.decode(piece, { stream: true }));
  const ms = now() - started;
  if (count !== events - 1) throw new Error(`baseline parsed ${count} events`);
  return ms;
}

try {
  const { medians, times } = await rotate(rounds, { ours, iterated, baseline });
  // Throughput ratio: baseline time / our time (higher is better), the median over rounds.
  const throughput = (name) =>
    [...times[name].map((ms, i) => times.baseline[i] / ms)].sort((a, b) => a - b)[
      times[name].length >> 1
    ];
  report([
    {
      id: "P1",
      measure: `SSE parse, ${chunks / 1000}k chunks, forEachChunk (throughput vs undici+eventsource-parser)`,
      ours: `${medians.ours.toFixed(0)} ms`,
      baseline: `${medians.baseline.toFixed(0)} ms`,
      ratio: throughput("ours"),
      goal: 0.9,
      lowerIsBetter: false,
    },
    {
      id: "P1i",
      measure: `SSE parse, ${chunks / 1000}k chunks, for await + finalCompletion() (shown)`,
      ours: `${medians.iterated.toFixed(0)} ms`,
      baseline: `${medians.baseline.toFixed(0)} ms`,
      ratio: throughput("iterated"),
      goal: null,
      lowerIsBetter: false,
    },
  ]);
} finally {
  server.disconnect();
}

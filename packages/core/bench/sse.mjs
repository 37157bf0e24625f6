// Benchmark: SSE parsing throughput of chat.completions.create({ stream: true }) — chunks/s
// and MB/s — against a baseline, in the same run, of reading the same bytes raw with undici.
//
//   cd packages/core && (build first) && node bench/sse.mjs [chunks]
//
// The server (bench/loopback-server.mjs) runs in a child process and sends the whole
// pre-built stream in 64 KiB writes.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { createClient } from "../dist/index.js";

const chunks = Number(process.argv[2] ?? 200_000);
const child = fork(fileURLToPath(new URL("./loopback-server.mjs", import.meta.url)), [
  "sse",
  String(chunks),
]);
const { port, bytes } = await new Promise((resolve) => child.once("message", resolve));
const url = `http://127.0.0.1:${port}`;

async function raw() {
  const started = process.hrtime.bigint();
  const response = await request(`${url}/v1/chat/completions`, { method: "POST", body: "{}" });
  let total = 0;
  for await (const piece of response.body) total += piece.length;
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, total };
}

async function parsed() {
  const client = createClient({ baseURL: url, apiKey: "bench-key" });
  const started = process.hrtime.bigint();
  const stream = await client.chat.completions.create({
    model: "reel-chat-1",
    messages: [{ role: "user", content: "go" }],
    stream: true,
  });
  let count = 0;
  for await (const _chunk of stream) count += 1;
  const completion = await stream.finalCompletion();
  return {
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    count,
    length: completion.choices[0]?.message.content?.length ?? 0,
  };
}

try {
  await raw(); // warm-up
  await parsed();
  const runs = 3;
  const rawRuns = [];
  const parsedRuns = [];
  for (let run = 0; run < runs; run++) {
    rawRuns.push(await raw());
    parsedRuns.push(await parsed());
  }
  const best = (list) => list.reduce((a, b) => (a.seconds < b.seconds ? a : b));
  const r = best(rawRuns);
  const p = best(parsedRuns);
  const mbps = (seconds) => Number((bytes / 1024 ** 2 / seconds).toFixed(1));
  console.log(
    JSON.stringify(
      {
        benchmark: "sse",
        events: chunks + 2,
        streamMB: Number((bytes / 1024 ** 2).toFixed(1)),
        raw: { seconds: Number(r.seconds.toFixed(3)), MBps: mbps(r.seconds) },
        parsed: {
          seconds: Number(p.seconds.toFixed(3)),
          MBps: mbps(p.seconds),
          chunksPerSecond: Math.round(p.count / p.seconds),
          chunksYielded: p.count,
        },
        parsedVsRaw: Number((r.seconds / p.seconds).toFixed(3)),
      },
      null,
      2,
    ),
  );
} finally {
  child.disconnect();
}

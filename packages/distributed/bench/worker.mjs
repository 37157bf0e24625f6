// One benchmark worker process (see workers.mjs).
import { startWorker } from "../dist/index.js";

const worker = await startWorker({
  databaseUrl: process.env.REELSMITH_DATABASE_URL,
  pollIntervalMs: Number(process.env.BENCH_POLL_MS ?? 100),
  logger: { warn: (m, d) => process.stderr.write(`${m} ${JSON.stringify(d ?? {})}\n`) },
});
process.stdout.write(`ready ${worker.executorId}\n`);
process.once("SIGTERM", async () => {
  await worker.stop({ graceMs: 0 });
  process.exit(0);
});

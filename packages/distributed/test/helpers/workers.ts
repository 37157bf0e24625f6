import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";

/** A worker running in its own process. */
export interface WorkerProcess {
  child: ChildProcess;
  executorId: string;
  stderr: () => string;
}

const script = join(import.meta.dirname, "..", "fixtures", "worker.mjs");

/**
 * Starts a worker process and waits until it says it takes work.
 * @example const worker = await spawnWorker(db.url, simulator.apiKey);
 */
export async function spawnWorker(
  databaseUrl: string,
  apiKey: string,
  concurrency = 8,
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      ...env,
      REELSMITH_DATABASE_URL: databaseUrl,
      REELSMITH_API_KEY: apiKey,
      REELSMITH_WORKER_CONCURRENCY: String(concurrency),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr?.on("data", (chunk) => {
    err += chunk;
  });
  let out = "";
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      const match = /ready (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}: ${err}`)));
  });
  const executorId = await ready;
  return { child, executorId, stderr: () => err };
}

/** Stops a worker process (SIGTERM, or SIGKILL with `kill`) and waits for it to exit. */
export async function stopWorker(worker: WorkerProcess, signal: NodeJS.Signals = "SIGTERM") {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  const exited = once(worker.child, "exit");
  worker.child.kill(signal);
  await exited;
}

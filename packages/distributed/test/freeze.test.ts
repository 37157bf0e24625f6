import { existsSync } from "node:fs";
import { probe } from "@reelsmith/media";
import { type JournalRecord, ledgerOf } from "@reelsmith/runner/runs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followRun, submitRun } from "../src/index.js";
import { startCutProxy } from "./helpers/cut-proxy.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";
import { type Scenario, startScenario, storyboard, waitFor } from "./helpers/scenario.js";
import { spawnWorker, stopWorker, type WorkerProcess } from "./helpers/workers.js";

// A frozen worker (SIGSTOP: a GC pause, a suspended VM) is judged dead after its grace and
// its units are taken over; then it wakes (SIGCONT). Against a service that ignores
// Idempotency-Key, nothing may run twice: one job per clip, each journaled once, the figures
// equal to the charges, every clip whole. Every wait is for a state (the database's, the
// service's), never for a time.

let database: TestDatabase;
beforeAll(async () => {
  database = await startTestDatabase();
});
afterAll(async () => {
  await database?.stop();
});

const SCENES = 6;

/** Heartbeats of 0.5 s, judged dead after 6 missed (3 s): a worker fences itself at 1.5 s. */
const workerEnv = { REELSMITH_TEST_HEARTBEAT_MS: "500", REELSMITH_TEST_MISSED_HEARTBEATS: "6" };

type Fact = JournalRecord & { name: string; index?: number; worker?: string; data?: unknown };

function facts(records: JournalRecord[], name: string): Fact[] {
  return records.filter((r): r is Fact => r.type === "fact" && (r as Fact).name === name);
}

/** Per item, how many of a fact the journal holds. */
function countByItem(records: JournalRecord[], name: string): Map<number, number> {
  const counts = new Map<number, number>();
  for (const fact of facts(records, name)) {
    const index = Number(fact.index);
    counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  return counts;
}

/**
 * Freezes `worker` (or takes it `away` otherwise) until another worker has taken over what it held (its hand-over recorded
 * and `unit`, a unit workflow's id, claimed by another executor), then wakes it.
 */
async function freezeUntilTakenOver(
  scenario: Scenario,
  worker: WorkerProcess,
  unit: string,
  away: { leave(): unknown; come(): void } = {
    leave: () => worker.child.kill("SIGSTOP"),
    come: () => worker.child.kill("SIGCONT"),
  },
): Promise<void> {
  const { pool } = scenario.coordinator;
  const before = (await pool.query<{ now: Date }>("SELECT now()")).rows[0]?.now;
  await away.leave();
  try {
    await waitFor(async () => {
      const handed = await pool.query(
        "SELECT 1 FROM reelsmith.workers WHERE executor_id = $1 AND handed_over_at >= $2",
        [worker.executorId, before],
      );
      if (handed.rowCount === 0) return undefined;
      // A unit it held runs on another worker now, under a new claim.
      const taken = await pool.query(
        `SELECT 1 FROM reelsmith.claims WHERE unit_id = $1 AND executor_id IS NOT NULL
             AND executor_id <> $2 AND claimed_at >= $3`,
        [unit, worker.executorId, before],
      );
      return (taken.rowCount ?? 0) > 0 ? true : undefined;
    }, "another worker to take over the frozen worker's unit");
  } finally {
    away.come();
  }
}

let trials = 0;
/** A story per trial, so that no two trials ask for the same clip. */
const STORIES = [
  "A paper boat rides the rain to the sea.",
  "A red kite climbs the wind above the hills.",
  "A lighthouse keeper shelters a fox from the storm.",
  "A night train crosses the snowy valley.",
  "A girl plants a seed that grows into a tower.",
  "An old fisherman mends his net at dawn.",
  "A lost robot follows the fireflies home.",
  "A hot air balloon drifts over the desert.",
];

/** One run of SCENES clips on the scenario, with `freeze` called once it is under way. */
async function trial(
  scenario: Scenario,
  freeze: (runId: string) => Promise<WorkerProcess>,
): Promise<void> {
  const { coordinator, simulator } = scenario;
  const before = simulator.stats();
  const { runId } = await submitRun(coordinator, {
    pipeline: storyboard,
    // A story of its own: a service without idempotency keys is settled by listing its jobs,
    // and an earlier trial's job for the same prompt, made within the listing's slack, would
    // match a lost submission of this one.
    inputs: { scenes: SCENES, story: STORIES[trials++ % STORIES.length] },
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    artifacts: scenario.artifacts,
    client: { honoursIdempotencyKeys: false },
    slots: { video: SCENES },
    cache: false,
  });
  const following = followRun(coordinator, runId);
  const frozen = await freeze(runId);
  const result = await following;
  const logs = scenario.workers.map((w) => `${w.executorId}:\n${w.stderr()}`).join("\n");
  expect(result.error, logs).toBeUndefined();
  expect(result.status).toBe("succeeded");
  const stats = simulator.stats();
  // One job per clip at the service.
  expect(stats.videoJobs.created - before.videoJobs.created, logs).toBe(SCENES);
  const records = await coordinator.store.journalRecords(runId);
  // Each job journaled once: one submission, one completion, one download per item.
  for (const name of ["video.submitted", "video.completed", "video.downloaded"]) {
    const counts = countByItem(records, name);
    expect(
      [...counts.keys()].sort((a, b) => a - b),
      name,
    ).toEqual(Array.from({ length: SCENES }, (_, i) => i));
    expect(
      [...counts.values()].every((n) => n === 1),
      `${name} twice: ${logs}`,
    ).toBe(true);
  }
  // The run's own records too: the woken worker's run workflow (when it ran the run) wrote
  // none after it was handed over.
  for (const type of ["step.end", "run.end"]) {
    const ends = records.filter((r) => r.type === type).map((r) => (r as { step?: string }).step);
    expect(new Set(ends).size, `${type} twice: ${logs}`).toBe(ends.length);
  }
  // Every figure equals the service's charges.
  const ledger = ledgerOf(records);
  expect(ledger.total.credits).toBe(stats.creditsCharged - before.creditsCharged);
  expect(ledger.total.jobsSubmitted).toBe(SCENES);
  // No torn artifact: every clip whole, the final video the sum of its clips.
  const clips = result.steps.clips?.outputs as { file: string }[];
  expect(clips).toHaveLength(SCENES);
  let total = 0;
  for (const clip of clips) {
    expect(existsSync(clip.file)).toBe(true);
    total += (await probe(clip.file)).duration;
  }
  const final = await probe(String(result.outputs.video));
  expect(final.duration).toBeCloseTo(total, 0);
  // The woken worker learnt it lost the unit, and did not write for it.
  await waitFor(
    async () =>
      /taken over by another worker|handed to another worker/.test(frozen.stderr())
        ? true
        : undefined,
    "the woken worker to drop the unit it lost",
  );
}

/** The scenario's worker process with this executor id. */
function workerOf(scenario: Scenario, executorId: unknown): WorkerProcess | undefined {
  return scenario.workers.find((w) => w.executorId === executorId);
}

describe("a worker frozen past its grace, then woken, at a service that ignores Idempotency-Key", () => {
  let scenario: Scenario | undefined;
  afterAll(async () => {
    await scenario?.close();
  });

  it("frozen while it polls a job, or between its intent and its POST: nothing runs twice (4 trials)", async () => {
    // Jobs of ~2 s: a frozen worker is judged dead while its jobs are in flight.
    scenario = await startScenario(
      database.url,
      3,
      { timeScale: 2, idempotencyKeys: false },
      workerEnv,
    );
    const current = scenario;
    // While polling: a worker holding a submitted job not yet completed.
    const whilePolling = async (runId: string) => {
      const found = await waitFor(async () => {
        const records = await current.coordinator.store.journalRecords(runId);
        const done = new Set(facts(records, "video.completed").map((f) => f.index));
        const held = facts(records, "video.submitted").find((f) => !done.has(f.index));
        const worker = held && workerOf(current, held.worker);
        return worker && held ? { worker, index: held.index } : undefined;
      }, "a job in flight");
      await freezeUntilTakenOver(current, found.worker, `${runId}:1:clips:${found.index}`);
      return found.worker;
    };
    // At its intent: the POST may or may not have left when it freezes.
    const atIntent = async (runId: string) => {
      const found = await waitFor(async () => {
        const records = await current.coordinator.store.journalRecords(runId);
        const intent = facts(records, "video.intent")[0];
        const worker = intent && workerOf(current, intent.worker);
        return worker && intent ? { worker, index: intent.index } : undefined;
      }, "a video intent");
      await freezeUntilTakenOver(current, found.worker, `${runId}:1:clips:${found.index}`);
      return found.worker;
    };
    for (const freeze of [whilePolling, atIntent, whilePolling, atIntent]) {
      await trial(current, freeze);
    }
  });
});

describe("a worker frozen while the service holds its submission's answer", () => {
  let scenario: Scenario | undefined;
  afterAll(async () => {
    await scenario?.close();
  });

  it("the successor adopts the job by listing, the woken worker's late answer is not journaled (2 trials)", async () => {
    // The first create of each trial is held 8 s; the service made the job meanwhile.
    scenario = await startScenario(
      database.url,
      3,
      {
        timeScale: 1,
        idempotencyKeys: false,
        faults: `stall@videos.create:#1#${SCENES + 1}:8000`,
      },
      workerEnv,
    );
    const current = scenario;
    for (let n = 1; n <= 2; n++) {
      await trial(current, async (runId) => {
        const found = await waitFor(async () => {
          if ((current.simulator.stats().faultsInjected.stall ?? 0) < n) return undefined;
          // The held request's intent is the one no job id settled.
          const records = await current.coordinator.store.journalRecords(runId);
          const submitted = new Set(facts(records, "video.submitted").map((f) => f.index));
          const intents = facts(records, "video.intent").filter((f) => !submitted.has(f.index));
          if (intents.length !== 1) return undefined;
          const worker = workerOf(current, intents[0]?.worker);
          return worker ? { worker, index: intents[0]?.index } : undefined;
        }, "a submission whose answer the service holds");
        await freezeUntilTakenOver(current, found.worker, `${runId}:1:clips:${found.index}`);
        return found.worker;
      });
    }
  });
});

describe("a worker cut off from the database for longer than its grace", () => {
  let scenario: Scenario | undefined;
  const extra: WorkerProcess[] = [];
  let proxy: Awaited<ReturnType<typeof startCutProxy>> | undefined;
  afterAll(async () => {
    for (const worker of extra) await stopWorker(worker);
    await scenario?.close();
    await proxy?.close();
  });

  it("its connections cut (a proxy) until another worker has taken its unit over: nothing runs twice", async () => {
    scenario = await startScenario(
      database.url,
      0,
      { timeScale: 2, idempotencyKeys: false },
      workerEnv,
    );
    const current = scenario;
    proxy = await startCutProxy(database.url);
    const cutProxy = proxy;
    // The worker that will be cut off reaches the database only through the proxy.
    const cutOff = await spawnWorker(cutProxy.url, current.simulator.apiKey, 8, workerEnv);
    extra.push(cutOff);
    current.workers.push(cutOff);
    await trial(current, async (runId) => {
      const found = await waitFor(async () => {
        const records = await current.coordinator.store.journalRecords(runId);
        const done = new Set(facts(records, "video.completed").map((f) => f.index));
        const held = facts(records, "video.submitted").find(
          (f) => !done.has(f.index) && f.worker === cutOff.executorId,
        );
        return held ? { index: held.index } : undefined;
      }, "a job in flight on the worker behind the proxy");
      await freezeUntilTakenOver(current, cutOff, `${runId}:1:clips:${found.index}`, {
        leave: async () => {
          cutProxy.cut();
          // The one that takes over, started once the other is cut off (it could otherwise
          // finish its job first), reaches the database directly.
          const successor = await spawnWorker(database.url, current.simulator.apiKey, 8, workerEnv);
          extra.push(successor);
          current.workers.push(successor);
        },
        come: () => cutProxy.restore(),
      });
      return cutOff;
    });
  });
});

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { modelCatalogs } from "@reelsmith/simulator/catalog";

/** The simulator's image, speech and transcription models with their prices. */
const catalogs = modelCatalogs;

// The runner's executor contract, run here against the DBOS executor.
import { describeExecutorContract } from "../../runner/test/contract/index.js";
import {
  type Coordinator,
  connect,
  followRun,
  startWorker,
  submitRun,
  type Worker,
} from "../src/index.js";
import { startTestDatabase, type TestDatabase } from "./helpers/postgres.js";

let database: TestDatabase | undefined;
let worker: Worker | undefined;
let coordinator: Coordinator | undefined;

describeExecutorContract(
  "DBOS on PostgreSQL (one worker in this process)",
  async () => {
    database = await startTestDatabase();
    const artifacts = mkdtempSync(join(tmpdir(), "reelsmith-artifacts-"));
    coordinator = await connect(database.url);
    let started: Promise<Worker> | undefined;
    return {
      name: "dbos",
      async run(pipeline, options) {
        if (!database || !coordinator) throw new Error("no database");
        // The worker uses the contract's simulator key, known only now.
        started ??= startWorker({ databaseUrl: database.url, apiKey: options.apiKey });
        worker = await started;
        const { runId } = await submitRun(coordinator, {
          pipeline,
          baseURL: options.baseURL,
          apiKey: options.apiKey,
          artifacts,
          // The simulator's own models with their prices, as the local harness runs with.
          catalogs,
          ...(options.inputs ? { inputs: options.inputs } : {}),
          ...(options.maxCredits === undefined ? {} : { maxCredits: options.maxCredits }),
          ...(options.maxVideos === undefined ? {} : { slots: { video: options.maxVideos } }),
          ...(options.cache === undefined ? {} : { cache: options.cache }),
          ...(options.autoApprove ? { autoApprove: true } : {}),
          ...(options.allowPartial ? { allowPartial: true } : {}),
          ...(options.allowPartial ? { allowPartial: true } : {}),
        });
        const result = await followRun(coordinator, runId);
        return {
          // The run's own status as its row keeps it (budget_reached, not failed).
          status: result.status,
          outputs: result.outputs,
          totals: result.totals,
          steps: result.steps,
          journal: await coordinator.store.journalRecords(runId),
          ...(result.error ? { error: result.error } : {}),
        };
      },
    };
  },
  async () => {
    await worker?.stop({ graceMs: 0 });
    await coordinator?.close();
    await database?.stop();
  },
);

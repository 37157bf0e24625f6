import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { modelCatalogs } from "@reelsmith/simulator/catalog";

/** The simulator's image, speech and transcription models with their prices. */
const catalogs = modelCatalogs;

import { readJournal } from "../../src/journal/journal.js";
import { runPipeline } from "../../src/run-pipeline.js";
import { describeExecutorContract } from "./index.js";

// The file-journal executor, in process: the embedded default.
describeExecutorContract("local (file journal)", async () => {
  const root = mkdtempSync(join(tmpdir(), "reelsmith-contract-"));
  return {
    name: "local",
    async run(pipeline, options) {
      const result = await runPipeline(pipeline, {
        runsRoot: join(root, "runs"),
        cacheDir: join(root, "cache"),
        baseURL: options.baseURL,
        apiKey: options.apiKey,
        // The simulator's own models: the service the contract runs against.
        catalogs,
        ...(options.inputs ? { inputs: options.inputs } : {}),
        ...(options.maxCredits === undefined ? {} : { maxCredits: options.maxCredits }),
        ...(options.maxVideos === undefined ? {} : { slots: { video: options.maxVideos } }),
        ...(options.cache === undefined ? {} : { cache: options.cache }),
        ...(options.autoApprove ? { autoApprove: true } : {}),
        ...(options.allowPartial ? { allowPartial: true } : {}),
      });
      return {
        status: result.status,
        outputs: result.outputs,
        totals: result.totals,
        steps: result.steps,
        journal: readJournal(join(result.runDir, "journal.jsonl")),
        ...(result.error ? { error: result.error } : {}),
      };
    },
  };
});

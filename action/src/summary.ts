import { setOutput, summary } from "@actions/core";
import { summarizeBatch } from "./summarize-batch.js";
import { summarizeRun } from "./summarize-run.js";

/**
 * The action's summary step: writes the job summary of the run (or, with BATCH_DIR, the batch
 * table) to `$GITHUB_STEP_SUMMARY`, sets the outputs `status`, `run-dir`, `video`, `credits`
 * and `report` (and a batch's `batch-dir` and `finals`) in `$GITHUB_OUTPUT`,
 * and ends with the run's exit code (the summary is written whatever it is).
 * Reads RUN_DIR, EVENTS_FILE, STDERR_FILE, EXIT_CODE, PIPELINE, and ARTIFACT_NAME,
 * ARTIFACT_URL and UPLOAD_OUTCOME (the artifact is named only when its upload succeeded),
 * DOCTOR_OUTCOME.
 */
async function main(): Promise<void> {
  const env = process.env;
  const artifact =
    env.ARTIFACT_NAME && env.UPLOAD_OUTCOME === "success"
      ? { name: env.ARTIFACT_NAME, ...(env.ARTIFACT_URL ? { url: env.ARTIFACT_URL } : {}) }
      : undefined;
  if (env.BATCH_DIR) {
    const batch = summarizeBatch({
      batchDir: env.BATCH_DIR,
      ...(env.EVENTS_FILE ? { eventsFile: env.EVENTS_FILE } : {}),
      ...(env.STDERR_FILE ? { stderrFile: env.STDERR_FILE } : {}),
      ...(env.EXIT_CODE ? { exitCode: env.EXIT_CODE } : {}),
      pipeline: env.PIPELINE ?? "",
      workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
      ...(artifact ? { artifact } : {}),
    });
    for (const [name, value] of Object.entries(batch.outputs)) setOutput(name, value);
    if (env.GITHUB_STEP_SUMMARY) await summary.addRaw(batch.markdown).write();
    else process.stdout.write(batch.markdown);
    process.stdout.write(
      `reelsmith: batch ${batch.outputs.status}, ${batch.rows.length} rows, ${batch.outputs.credits} credits\n`,
    );
    process.exitCode = batch.exitCode;
    return;
  }
  const result = summarizeRun({
    ...(env.RUN_DIR ? { runDir: env.RUN_DIR } : {}),
    ...(env.EVENTS_FILE ? { eventsFile: env.EVENTS_FILE } : {}),
    ...(env.STDERR_FILE ? { stderrFile: env.STDERR_FILE } : {}),
    ...(env.EXIT_CODE ? { exitCode: env.EXIT_CODE } : {}),
    ...(env.DOCTOR_OUTCOME ? { doctorOutcome: env.DOCTOR_OUTCOME } : {}),
    pipeline: env.PIPELINE ?? "",
    workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
    ...(artifact ? { artifact } : {}),
  });
  for (const [name, value] of Object.entries(result.outputs)) setOutput(name, value);
  if (env.GITHUB_STEP_SUMMARY) await summary.addRaw(result.markdown).write();
  else process.stdout.write(result.markdown);
  process.stdout.write(
    `reelsmith: ${result.outputs.status}${result.outputs.video ? `, video ${result.outputs.video}` : ""}\n`,
  );
  process.exitCode = result.exitCode;
}

await main();

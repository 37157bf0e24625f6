import { setOutput, summary } from "@actions/core";
import { summarizeRun } from "./summarize-run.js";

/**
 * The action's summary step: writes the job summary of the run to `$GITHUB_STEP_SUMMARY`,
 * sets the outputs `status`, `run-dir`, `video`, `credits` and `report` in `$GITHUB_OUTPUT`,
 * and ends with the run's exit code (the summary is written whatever it is).
 * Reads RUN_DIR, EVENTS_FILE, STDERR_FILE, EXIT_CODE, PIPELINE, and ARTIFACT_NAME,
 * ARTIFACT_URL and UPLOAD_OUTCOME (the artifact is named only when its upload succeeded),
 * DOCTOR_OUTCOME.
 */
async function main(): Promise<void> {
  const env = process.env;
  const result = summarizeRun({
    ...(env.RUN_DIR ? { runDir: env.RUN_DIR } : {}),
    ...(env.EVENTS_FILE ? { eventsFile: env.EVENTS_FILE } : {}),
    ...(env.STDERR_FILE ? { stderrFile: env.STDERR_FILE } : {}),
    ...(env.EXIT_CODE ? { exitCode: env.EXIT_CODE } : {}),
    ...(env.DOCTOR_OUTCOME ? { doctorOutcome: env.DOCTOR_OUTCOME } : {}),
    pipeline: env.PIPELINE ?? "",
    workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
    ...(env.ARTIFACT_NAME && env.UPLOAD_OUTCOME === "success"
      ? {
          artifact: {
            name: env.ARTIFACT_NAME,
            ...(env.ARTIFACT_URL ? { url: env.ARTIFACT_URL } : {}),
          },
        }
      : {}),
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

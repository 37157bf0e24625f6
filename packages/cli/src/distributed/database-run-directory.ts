import { readFileSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors/cli-error.js";

/**
 * Refuses to drive a run on many machines from its directory: its directory mirrors the
 * database, where its state lives (`run.json` says so with a `database` field), so a local
 * resume or take would write a journal the next mirror replaces. Says what to type instead.
 * @example refuseDatabaseRunDirectory("/work/runs/20260101-120000-storyboard", "resume");
 */
export function refuseDatabaseRunDirectory(runDir: string, command: string): void {
  let runJson: { runId?: unknown; database?: unknown } | undefined;
  try {
    runJson = JSON.parse(readFileSync(path.join(runDir, "run.json"), "utf8"));
  } catch {
    return;
  }
  if (!runJson || typeof runJson.database !== "object" || runJson.database === null) return;
  const runId = typeof runJson.runId === "string" ? runJson.runId : path.basename(runDir);
  throw new UsageError(
    `${runId} ran on many machines: its state lives in the database, its directory only mirrors it`,
    {
      code: "database_run",
      hint:
        command === "resume"
          ? `resume it with: reelsmith resume ${runId} --database …`
          : `${command} is not available for a run on many machines; see it with: reelsmith status ${runId} --database …`,
    },
  );
}

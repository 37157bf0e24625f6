import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MediaOptions } from "@reelsmith/media";
import { buildModel } from "./model/build-model.js";
import { readRun } from "./model/read-run.js";
import type { ReportModel } from "./model/report-model.js";
import { renderPage } from "./render/render-page.js";
import { makeThumbnails } from "./thumbnails.js";

/** Options of {@link writeReport}. */
export interface WriteReportOptions extends Pick<MediaOptions, "tools" | "signal"> {
  /**
   * Strings that must never appear in the page (API keys). They are replaced by
   * `[redacted]`; REELSMITH_API_KEY and OPENAI_API_KEY of the environment always are.
   */
  secrets?: readonly string[];
  /** Make poster thumbnails with ffmpeg (default true). */
  thumbnails?: boolean;
  /** Also (re)write the report of each sub-pipeline run under `subruns/` (default true). */
  subRuns?: boolean;
}

/** What {@link writeReport} wrote. */
export interface WriteReportResult {
  /** Absolute path of `report.html`. */
  file: string;
  model: ReportModel;
  thumbnails: { made: number; reused: number; failed: { file: string; message: string }[] };
}

function redact(html: string, secrets: readonly string[]): string {
  let text = html;
  for (const secret of secrets) {
    // Short strings could be ordinary words; real keys are long.
    if (secret.length >= 8) text = text.split(secret).join("[redacted]");
  }
  return text;
}

/**
 * Writes `report.html` (and `report/thumbs/*.jpg`) into a run directory from its journal,
 * event log and run.json: header, storyboard, final video, timeline, costs, chats, errors.
 * Works on finished, failed, interrupted and still running runs (what is known so far).
 * @example
 * const { file } = await writeReport("runs/20260101-120000-storyboard");
 * console.log(`open ${file}`);
 */
export async function writeReport(
  runDir: string,
  options: WriteReportOptions = {},
): Promise<WriteReportResult> {
  const record = readRun(runDir);
  if (options.subRuns !== false) {
    for (const sub of record.subRuns) {
      await writeReport(sub.dir, { ...options, subRuns: true }).catch(() => undefined);
    }
  }
  // Read again so the sub-runs' fresh report.html files are linked (a run without any is
  // read once).
  const again = options.subRuns !== false && record.subRuns.length > 0;
  const model = buildModel(again ? readRun(runDir) : record);
  const thumbnails =
    options.thumbnails === false
      ? { made: 0, reused: 0, failed: [] }
      : await makeThumbnails(record.runDir, model, options);
  const secrets = [
    ...(options.secrets ?? []),
    process.env.REELSMITH_API_KEY ?? "",
    process.env.OPENAI_API_KEY ?? "",
  ];
  const html = redact(renderPage(model), secrets);
  const file = join(record.runDir, "report.html");
  mkdirSync(record.runDir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, html);
  renameSync(temp, file);
  return { file, model, thumbnails };
}

/** What {@link writeRunEndReport} came to: the file, or why there is none. */
export interface RunEndReport {
  /** Absolute path of `report.html`, when it was written. */
  file?: string;
  /** Why it was not written (the run is unchanged; `reelsmith report DIR` writes it again). */
  error?: string;
  /** Poster frames that could not be made (the page shows the clip without one). */
  postersFailed: { file: string; message: string }[];
}

/**
 * Writes a run's report at the run's end, the one way every host does it (the CLI after a run
 * or a session, the DBOS worker holding the run, the studio after a session): with the
 * secrets the host holds redacted, and a report that cannot be written never changes how the
 * run ended. It never throws: what went wrong is in the result, for the host to say.
 * @example
 * const report = await writeRunEndReport(result.runDir, { secrets: [apiKey] });
 * if (report.error) logger.warn("report not written", { error: report.error });
 */
export async function writeRunEndReport(
  runDir: string,
  options: Pick<WriteReportOptions, "secrets" | "signal"> = {},
): Promise<RunEndReport> {
  try {
    const { file, thumbnails } = await writeReport(runDir, options);
    return { file, postersFailed: thumbnails.failed };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error), postersFailed: [] };
  }
}

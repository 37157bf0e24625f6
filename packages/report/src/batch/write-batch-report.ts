import { existsSync, mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { type MediaOptions, thumbnail } from "@reelsmith/media";
import { readBatchJson } from "@reelsmith/runner/batch";
import { NotARunDirectoryError } from "../model/read-run.js";
import { writeReport } from "../write-report.js";
import { type BatchReportModel, type BatchRowView, renderBatchPage } from "./render-batch.js";

/** Options of {@link writeBatchReport}. */
export interface WriteBatchReportOptions extends Pick<MediaOptions, "tools" | "signal"> {
  /** (Re)write each started row's own `report.html` too (default true). */
  rowReports?: boolean;
  /** Strings that must never appear in the pages (API keys), as for `writeReport`. */
  secrets?: readonly string[];
}

function newerThan(file: string, than: string): boolean {
  try {
    return statSync(file).mtimeMs >= statSync(than).mtimeMs;
  } catch {
    return false;
  }
}

/** The final video's poster frame in `report/posters/<id>.jpg` (kept while newer than the video). */
async function poster(
  batchDir: string,
  id: string,
  video: string,
  options: WriteBatchReportOptions,
): Promise<string | undefined> {
  const output = join(batchDir, "report", "posters", `${id}.jpg`);
  if (!newerThan(output, video)) {
    mkdirSync(join(batchDir, "report", "posters"), { recursive: true });
    try {
      await thumbnail(video, {
        output,
        width: 320,
        ...(options.tools ? { tools: options.tools } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch {
      return undefined;
    }
  }
  return relative(batchDir, output).split("\\").join("/");
}

/**
 * Writes `batch.html` into a batch directory from its `batch.json`: one row per input row with
 * its status, cost, duration, the final video's poster frame and a link to the row's own run
 * report (written too, unless `rowReports` is false), failures first.
 * @example const { file } = await writeBatchReport("runs/20260101-120000-storyboard-batch");
 */
export async function writeBatchReport(
  batchDir: string,
  options: WriteBatchReportOptions = {},
): Promise<{ file: string; model: BatchReportModel }> {
  const dir = resolve(batchDir);
  const batch = readBatchJson(dir);
  if (!batch) throw new NotARunDirectoryError(dir);
  const rows: BatchRowView[] = [];
  for (const row of batch.rows) {
    const view: BatchRowView = { ...row };
    if (row.runDir) {
      const runDir = join(dir, row.runDir);
      if (options.rowReports !== false && existsSync(join(runDir, "journal.jsonl"))) {
        await writeReport(runDir, {
          ...(options.secrets ? { secrets: options.secrets } : {}),
          ...(options.tools ? { tools: options.tools } : {}),
        }).catch(() => undefined);
      }
      if (existsSync(join(runDir, "report.html")))
        view.report = `${row.runDir.split("\\").join("/")}/report.html`;
    }
    // Relative to the batch directory (absolute in batches of older versions).
    const final = row.final ? resolve(dir, row.final) : undefined;
    if (final && existsSync(final)) {
      view.video = relative(dir, final).split("\\").join("/");
      const made = await poster(dir, row.id, final, options);
      if (made) view.poster = made;
    }
    rows.push(view);
  }
  const model: BatchReportModel = { batch, rows, generatedAt: new Date().toISOString() };
  let html = renderBatchPage(model);
  for (const secret of [
    ...(options.secrets ?? []),
    process.env.REELSMITH_API_KEY ?? "",
    process.env.OPENAI_API_KEY ?? "",
  ]) {
    if (secret.length >= 8) html = html.split(secret).join("[redacted]");
  }
  const file = join(dir, "batch.html");
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, html);
  renameSync(temp, file);
  return { file, model };
}

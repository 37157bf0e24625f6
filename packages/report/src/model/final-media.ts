import { extname } from "node:path";
import { AUDIO_EXTENSIONS, IMAGE_EXTENSIONS, unitImages } from "./image-files.js";
import { naturalOrder, type RunRecord } from "./read-run.js";
import type { ReportModel, RunFile, StepRow } from "./report-model.js";
import { runFile } from "./run-file.js";
import type { StepInfo } from "./timeline-marks.js";

const VIDEO_EXTENSIONS = new Set([".mp4", ".webm", ".mov", ".m4v"]);

/**
 * The run's final videos (each with its poster) and pictures: its outputs, or for a run that
 * did not finish, what its plain media steps made.
 * @example const { videos, images } = finalMedia(record, steps, roles);
 */
export function finalMedia(
  record: RunRecord,
  steps: readonly StepRow[],
  roles: ReadonlyMap<string, string | undefined>,
): { videos: RunFile[]; images: RunFile[] } {
  const { runDir, state } = record;
  const candidates: unknown[] = Object.values(record.runJson.outputs ?? {});
  // A run that did not finish has no outputs yet: its ffmpeg steps' files are what it made.
  if (candidates.length === 0) {
    for (const step of steps) {
      if (roles.get(step.id) !== "media" || step.fanOut) continue;
      const file = (state.steps.get(step.id)?.outputs as { file?: unknown } | undefined)?.file;
      candidates.push(file);
    }
  }
  const seen = new Set<string>();
  const videos: RunFile[] = [];
  const images: RunFile[] = [];
  for (const candidate of candidates) {
    const file = runFile(runDir, candidate);
    if (!file?.exists || seen.has(file.relative)) continue;
    seen.add(file.relative);
    const extension = extname(file.relative).toLowerCase();
    if (VIDEO_EXTENSIONS.has(extension)) videos.push(file);
    else if (IMAGE_EXTENSIONS.has(extension)) images.push(file);
  }
  images.sort((a, b) => naturalOrder(a.relative, b.relative));
  videos.forEach((video, position) => {
    const poster = runFile(runDir, `report/thumbs/output-${position}.jpg`);
    if (poster) Object.assign(video, { poster });
  });
  return { videos, images };
}

/**
 * What the media units made that the page shows, step by step: pictures (character sheets,
 * keyframes) and sounds (a narration per scene).
 * @example const { madeImages, madeSounds } = madeMedia(record, stepInfos, roles);
 */
export function madeMedia(
  record: RunRecord,
  stepInfos: readonly StepInfo[],
  roles: ReadonlyMap<string, string | undefined>,
): Pick<ReportModel, "madeImages" | "madeSounds"> {
  const madeFiles = (extensions: ReadonlySet<string>) =>
    stepInfos
      .filter((info) => roles.get(info.id) === "media")
      .map((info) => {
        const journaled = record.state.steps.get(info.id);
        const units = info.fanOut
          ? [...(journaled?.items.entries() ?? [])]
              .sort(([a], [b]) => a - b)
              .map(([, item]) => item.outputs)
          : [journaled?.outputs];
        const files = units.flatMap((outputs) =>
          unitImages(
            outputs as Record<string, unknown> | undefined,
            record.runDir,
            runFile,
            extensions,
          ),
        );
        return { step: info.id, files };
      })
      .filter((entry) => entry.files.length > 0);
  return { madeImages: madeFiles(IMAGE_EXTENSIONS), madeSounds: madeFiles(AUDIO_EXTENSIONS) };
}

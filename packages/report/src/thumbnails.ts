import { mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { type MediaOptions, thumbnail } from "@reelsmith/media";
import pLimit from "p-limit";
import type { ReportModel } from "./model/report-model.js";

/** Width of a card's poster frame in pixels (a JPEG of a few KB). */
export const THUMBNAIL_WIDTH = 240;

function newerThan(file: string, than: string): boolean {
  try {
    return statSync(file).mtimeMs >= statSync(than).mtimeMs;
  } catch {
    return false;
  }
}

/**
 * Makes the poster frame of each card's clip (and of each of its takes) with ffmpeg (media's thumbnail), skipping
 * those already newer than their clip; a clip ffmpeg cannot read gets no poster and the
 * failure is returned. Marks each card's thumbnail as existing when made.
 */
export async function makeThumbnails(
  runDir: string,
  model: ReportModel,
  options: Pick<MediaOptions, "tools" | "signal"> & { concurrency?: number } = {},
): Promise<{ made: number; reused: number; failed: { file: string; message: string }[] }> {
  const limit = pLimit(options.concurrency ?? 4);
  let made = 0;
  let reused = 0;
  const failed: { file: string; message: string }[] = [];
  const jobs = [
    ...model.cards.map((card) => ({
      clip: card.clip,
      thumbnail: card.thumbnail,
      width: THUMBNAIL_WIDTH,
    })),
    // Each take of a retaken clip, shown side by side on its card.
    ...model.cards.flatMap((card) =>
      (card.takes ?? []).map((take) => ({
        clip: take.clip,
        thumbnail: take.thumbnail,
        width: THUMBNAIL_WIDTH,
      })),
    ),
    ...model.finalVideos.map((video) => ({ clip: video, thumbnail: video.poster, width: 720 })),
  ];
  await Promise.all(
    jobs.map((card) =>
      limit(async () => {
        if (!card.clip?.exists || !card.thumbnail) return;
        const clip = join(runDir, card.clip.relative);
        const output = join(runDir, card.thumbnail.relative);
        if (newerThan(output, clip)) {
          card.thumbnail.exists = true;
          reused += 1;
          return;
        }
        mkdirSync(dirname(output), { recursive: true });
        try {
          await thumbnail(clip, {
            output,
            width: card.width,
            ...(options.tools ? { tools: options.tools } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
          });
          card.thumbnail.exists = true;
          made += 1;
        } catch (error) {
          card.thumbnail.exists = false;
          failed.push({ file: card.clip.relative, message: (error as Error).message });
        }
      }),
    ),
  );
  return { made, reused, failed };
}

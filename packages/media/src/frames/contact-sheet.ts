import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { requirePositive } from "../edit/video-encoder-args.js";
import { escapeFilterValue } from "../filters/escape.js";
import type { MediaOptions } from "../options.js";
import { probe } from "../probe/probe.js";
import { createProgressTracker } from "../process/progress.js";
import { resolveTools, runFfmpeg } from "../process/run-ffmpeg.js";
import { withTempOutput } from "../process/temp-output.js";
import { mapLimit } from "../util/map-limit.js";
import { imageOutputArgs } from "./image-output.js";
import { verifyImage } from "./verify-image.js";

/** Options of {@link contactSheet}. */
export interface ContactSheetOptions extends MediaOptions {
  /** Image file: .png, .jpg, .jpeg, .webp or .bmp. */
  output: string;
  /** Tiles per row (default: up to 4). */
  columns?: number;
  /** Width of each tile in pixels (default 320); the height follows the first clip's aspect. */
  tileWidth?: number;
  /** Second to take each frame from (default: each clip's middle; clamped to each clip). */
  at?: number;
  /** A caption per clip, drawn at the bottom of its tile. */
  labels?: string[];
}

/**
 * One picture of a whole storyboard: a frame of each clip, in a grid, optionally captioned.
 *
 * @example
 * await contactSheet(["s1.mp4", "s2.mp4", "s3.mp4"], { output: "sheet.png", columns: 3, labels: ["Dawn", "Storm", "Calm"] });
 */
export async function contactSheet(
  inputs: readonly string[],
  options: ContactSheetOptions,
): Promise<{ output: string }> {
  if (!Array.isArray(inputs) || inputs.length === 0)
    throw new TypeError("Expected `inputs` to be a non-empty array of file paths");
  const columns = Math.floor(
    requirePositive("columns", options.columns) ?? Math.min(4, inputs.length),
  );
  const tileWidth = Math.round((requirePositive("tileWidth", options.tileWidth) ?? 320) / 2) * 2;
  const at = requirePositive("at", options.at, true);
  const outputArgs = imageOutputArgs(options.output);
  const tools = await resolveTools(options);
  const files = inputs.map((input) => path.resolve(input));
  const infos = await mapLimit(files, 4, (file) => probe(file, { tools, signal: options.signal }));
  const first = infos[0];
  const tileHeight =
    first && first.width > 0
      ? Math.max(2, Math.round((tileWidth * first.height) / first.width / 2) * 2)
      : tileWidth;
  const rows = Math.ceil(files.length / columns);
  const fontSize = Math.max(10, Math.round(tileHeight / 10));
  const destination = path.resolve(options.output);
  const labelDirectory = await mkdtemp(path.join(tmpdir(), "reelsmith-labels-"));
  const progress = createProgressTracker(options.onProgress, 1);
  try {
    const inputArgs: string[] = [];
    const graph: string[] = [];
    for (const [index, file] of files.entries()) {
      const info = infos[index];
      const length = info?.videoDuration ?? info?.duration ?? 0;
      const frame = info && info.fps > 0 ? 1 / info.fps : 0.04;
      const time = Math.max(0, Math.min(at ?? length / 2, length - frame));
      inputArgs.push("-ss", time.toFixed(6), "-i", file);
      const tile = [
        "trim=end_frame=1",
        `scale=${tileWidth}:${tileHeight}:force_original_aspect_ratio=decrease`,
        `pad=${tileWidth}:${tileHeight}:(ow-iw)/2:(oh-ih)/2:color=black`,
        "setsar=1",
        "format=rgb24",
      ];
      const label = options.labels?.[index];
      if (label) {
        const labelFile = path.join(labelDirectory, `${index}.txt`);
        await writeFile(labelFile, label.replace(/\s+/g, " ").trim(), "utf8");
        tile.push(
          [
            `drawtext=fontfile=${escapeFilterValue(tools.fontFile)}`,
            `textfile=${escapeFilterValue(labelFile)}`,
            "expansion=none",
            `fontsize=${fontSize}`,
            "fontcolor=white",
            "box=1",
            "boxcolor=black@0.6",
            `boxborderw=${Math.round(fontSize / 4)}`,
            "x=(w-text_w)/2",
            `y=h-text_h-${Math.round(fontSize / 2)}`,
          ].join(":"),
        );
      }
      graph.push(`[${index}:v:0]${tile.join(",")}[t${index}]`);
    }
    for (let index = files.length; index < rows * columns; index++) {
      graph.push(`color=c=black:s=${tileWidth}x${tileHeight}:r=1:d=1,format=rgb24[t${index}]`);
    }
    const rowLabels: string[] = [];
    for (let row = 0; row < rows; row++) {
      const tiles = Array.from(
        { length: columns },
        (_, column) => `[t${row * columns + column}]`,
      ).join("");
      if (columns === 1) {
        rowLabels.push(`[t${row}]`);
        continue;
      }
      graph.push(`${tiles}hstack=inputs=${columns}[r${row}]`);
      rowLabels.push(`[r${row}]`);
    }
    const finalLabel = rows === 1 ? (rowLabels[0] ?? "[t0]") : "[sheet]";
    if (rows > 1) graph.push(`${rowLabels.join("")}vstack=inputs=${rows}[sheet]`);
    await withTempOutput(destination, async (temp) => {
      await runFfmpeg(
        tools,
        [...inputArgs, "-filter_complex", graph.join(";"), "-map", finalLabel, ...outputArgs, temp],
        {
          signal: options.signal,
          stallTimeoutMs: options.stallTimeoutMs,
          onCommand: options.onCommand,
        },
      );
      await verifyImage(
        tools,
        temp,
        { width: tileWidth * columns, height: tileHeight * rows },
        destination,
        options.signal,
      );
    });
  } finally {
    await rm(labelDirectory, { recursive: true, force: true });
  }
  progress.done();
  return { output: destination };
}

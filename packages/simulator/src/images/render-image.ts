import { createHash } from "node:crypto";
import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { extractFrame } from "@reelsmith/media";
import { synthesizeClip } from "@reelsmith/media/synthesize";
import { compositeReferences } from "./composite-references.js";

/** Options of {@link renderImage}. */
export interface RenderImageOptions {
  prompt: string;
  /** `WIDTHxHEIGHT`. */
  size: string;
  /** Which of the request's images (0-based) and how many it asked for. */
  index: number;
  count: number;
  /** The simulator's seed: the same seed, prompt and size give the same picture. */
  seed: number;
  /** Reference images of an edit: shown as small insets in the top right corner. */
  references?: readonly { bytes: Buffer; sha256: string }[];
  /** A scratch directory of this render's own (removed afterwards). */
  directory: string;
  signal?: AbortSignal;
}

/**
 * Draw one PNG of `size` with the prompt on it, with `@reelsmith/media` (a one-frame clip, then
 * its first frame): one box of text over a colour drawn from (seed, prompt, size, index); then
 * an edit's references as small insets in the top right corner, clear of the text. The same inputs give
 * the same picture; the images of one request differ by colour and by their `k/n` mark.
 *
 * @example
 * const png = await renderImage({ prompt: "A red fox", size: "512x512", index: 0, count: 1, seed: 0, directory });
 */
export async function renderImage(options: RenderImageOptions): Promise<Buffer> {
  const { directory } = options;
  await mkdir(directory, { recursive: true });
  try {
    const hash = createHash("sha256")
      .update(JSON.stringify([options.seed, options.prompt, options.size, options.index]))
      .digest("hex");
    const background = `#${hash.slice(0, 6)}`;
    const mark = options.count > 1 ? ` (${options.index + 1}/${options.count})` : "";
    const clip = path.join(directory, "frame.mp4");
    await synthesizeClip({
      output: clip,
      seconds: 0.1,
      fps: 10,
      size: options.size,
      text: `${options.prompt}${mark}`,
      background,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const png = path.join(directory, "frame.png");
    await extractFrame(clip, { at: "first", output: png });
    const bytes = await readFile(png);
    return options.references?.length ? compositeReferences(bytes, options.references) : bytes;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

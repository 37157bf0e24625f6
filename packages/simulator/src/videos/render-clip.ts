import { writeFile } from "node:fs/promises";
import path from "node:path";
import { synthesizeClip } from "@reelsmith/media/synthesize";
import { parseDataUri } from "../util/data-uri.js";
import type { VideoRequest } from "./validate-video-request.js";

const imageExtensions: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/bmp": "bmp",
};

/**
 * Render the clip of one job into `directory/<id>.mp4` with `@reelsmith/media`'s synthesizeClip:
 * H.264 + AAC of the requested size and length. From a reference image (`image_url` as a data
 * URI) it is that picture, slowly pushed in, without the prompt drawn over the picture's own
 * words; otherwise the prompt drawn over a colour (http(s) URLs are never fetched).
 *
 * @example
 * const file = await renderClip("video_abc", request, "/tmp/sim", signal);
 */
export async function renderClip(
  id: string,
  request: VideoRequest,
  directory: string,
  signal: AbortSignal,
): Promise<string> {
  signal.throwIfAborted();
  const output = path.join(directory, `${id}.mp4`);
  let image: string | undefined;
  const reference = request.imageUrl ? parseDataUri(request.imageUrl) : undefined;
  if (reference) {
    image = path.join(directory, `${id}-reference.${imageExtensions[reference.mime] ?? "img"}`);
    await writeFile(image, reference.bytes);
  }
  await synthesizeClip({
    output,
    seconds: request.seconds,
    size: request.size,
    signal,
    ...(image ? {} : { text: request.prompt }),
    ...(image ? { image } : {}),
  });
  return output;
}

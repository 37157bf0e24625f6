import { createReadStream, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname } from "node:path";

const TYPES: Record<string, string> = {
  ".mp4": "video/mp4",
  ".m4v": "video/mp4",
  ".mov": "video/quicktime",
  ".webm": "video/webm",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".gif": "image/gif",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".srt": "text/plain; charset=utf-8",
  ".ass": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".json": "application/json",
  ".jsonl": "text/plain; charset=utf-8",
  ".ndjson": "text/plain; charset=utf-8",
  ".yaml": "text/plain; charset=utf-8",
  ".yml": "text/plain; charset=utf-8",
};

/**
 * Sends a file of a run (already checked to be inside the runs directory), with byte ranges
 * so that a player can seek. Anything that is not media or text goes as a download
 * (`application/octet-stream`, `nosniff`): a run's HTML (report.html) is never rendered as a
 * page of the studio's origin.
 * @example sendFile(request, response, "/srv/runs/x/final.mp4");
 */
export function sendFile(request: IncomingMessage, response: ServerResponse, file: string): void {
  const size = statSync(file).size;
  const type = TYPES[extname(file).toLowerCase()];
  response.setHeader("Content-Type", type ?? "application/octet-stream");
  if (!type) response.setHeader("Content-Disposition", "attachment");
  response.setHeader("Accept-Ranges", "bytes");
  response.setHeader("Cache-Control", "no-cache");
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? "");
  let start = 0;
  let end = size - 1;
  if (range && (range[1] || range[2])) {
    if (range[1]) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    } else {
      start = Math.max(0, size - Number(range[2]));
    }
    if (start > end || start >= size) {
      response.writeHead(416, { "Content-Range": `bytes */${size}` }).end();
      return;
    }
    response.writeHead(206, {
      "Content-Range": `bytes ${start}-${end}/${size}`,
      "Content-Length": end - start + 1,
    });
  } else {
    response.writeHead(200, { "Content-Length": size });
  }
  if (request.method === "HEAD" || size === 0) {
    response.end();
    return;
  }
  createReadStream(file, { start, end }).pipe(response);
}

import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { APIConnectionError } from "../errors/api-connection-error.js";
import { readBody } from "../http/read-body.js";
import type { StreamResponse, Transport } from "../http/transport.js";

/** Shortest time between two progress reports of one download. */
export const progressIntervalMs = 100;

/** Progress of a download. */
export interface DownloadProgress {
  bytes: number;
  total?: number;
}

/**
 * Streams a response body to `to` through a temp file beside it (renamed on success,
 * removed on failure). Memory stays bounded: chunks flow with back-pressure.
 */
export async function streamToFile(
  transport: Transport,
  response: StreamResponse,
  to: string,
  onProgress?: (progress: DownloadProgress) => void,
): Promise<{ path: string; bytes: number }> {
  const target = resolve(to);
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.part`);
  const lengthHeader = response.headers["content-length"];
  const total =
    lengthHeader === undefined
      ? undefined
      : Number(Array.isArray(lengthHeader) ? lengthHeader[0] : lengthHeader);
  let bytes = 0;
  let reportedAt = 0;
  const report = () => {
    reportedAt = Date.now();
    onProgress?.(total !== undefined && Number.isFinite(total) ? { bytes, total } : { bytes });
  };
  // Each chunk counted as it passes, at most one progress report per interval, and the last.
  async function* counted(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      bytes += chunk.length;
      if (Date.now() - reportedAt >= progressIntervalMs) report();
      yield chunk;
    }
    report();
  }
  try {
    // Written through a file handle, a chunk at a time (each write awaited before the next
    // chunk is read): no stream objects, which Node 20 builds with a hidden class each.
    await writeFile(
      temp,
      counted(readBody(response, transport.config.streamIdleTimeoutMs, transport.redact)),
      { flag: "wx" },
    );
    if (total !== undefined && Number.isFinite(total) && bytes !== total) {
      throw new APIConnectionError(`The download ended after ${bytes} of ${total} bytes.`, {
        code: "download_incomplete",
      });
    }
    await rename(temp, target);
    return { path: target, bytes };
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

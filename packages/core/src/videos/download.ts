import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
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
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      // At most one progress report per interval, plus the final one.
      if (Date.now() - reportedAt >= progressIntervalMs) report();
      callback(null, chunk);
    },
    flush(callback) {
      report();
      callback();
    },
  });
  try {
    await pipeline(
      readBody(response, transport.config.streamIdleTimeoutMs, transport.redact),
      counter,
      createWriteStream(temp, { flags: "wx" }),
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

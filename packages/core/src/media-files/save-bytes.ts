import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { readBody } from "../http/read-body.js";
import type { StreamResponse, Transport } from "../http/transport.js";

/**
 * Write bytes to `to` through a temp file beside it (renamed once whole), so a reader never
 * sees half a file. Returns the absolute path.
 *
 * @example
 * await saveBytes("out/keyframe-1.png", png);
 */
export async function saveBytes(to: string, bytes: Uint8Array): Promise<string> {
  const target = resolve(to);
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.part`);
  try {
    await writeFile(temp, bytes, { flag: "wx" });
    await rename(temp, target);
    return target;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * The whole body of a streamed response, with the client's idle timeout between chunks.
 *
 * @example
 * const bytes = await readAll(transport, await transport.stream({ method: "GET", path: url }));
 */
export async function readAll(transport: Transport, response: StreamResponse): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of readBody(
    response,
    transport.config.streamIdleTimeoutMs,
    transport.redact,
  ))
    chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * The path of image `index` of `count` for a `to` option: the path itself for one image, else
 * `-1`, `-2`, … before the extension (or what a function gives).
 *
 * @example
 * numberedPath("key.png", 1, 3); // "key-2.png"
 */
export function numberedPath(
  to: string | ((index: number) => string),
  index: number,
  count: number,
): string {
  if (typeof to === "function") return to(index);
  if (count === 1) return to;
  const dot = to.lastIndexOf(".");
  const slash = Math.max(to.lastIndexOf("/"), to.lastIndexOf("\\"));
  return dot > slash ? `${to.slice(0, dot)}-${index + 1}${to.slice(dot)}` : `${to}-${index + 1}`;
}

import { deflateSync } from "node:zlib";
import type { Simulator } from "../src/index.js";

/** fetch against the simulator with its bearer key and a JSON body. */
export function call(
  simulator: Simulator,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${simulator.apiKey}`,
    ...init.headers,
  };
  let body: string | undefined;
  if (init.body !== undefined) {
    headers["content-type"] ??= "application/json";
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
  }
  return fetch(`${simulator.url}${path}`, {
    method: init.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
}

/** Parse an SSE body into its `data:` payloads (the last one is usually "[DONE]"). */
export function sseData(text: string): string[] {
  return text
    .split("\n\n")
    .filter((event) => event.trim() !== "")
    .map((event) => {
      const line = event.split("\n").find((candidate) => candidate.startsWith("data: "));
      if (!line) throw new Error(`event without data: ${event}`);
      return line.slice("data: ".length);
    });
}

/** A real, minimal PNG of `width`×`height`: grey pixels, or truecolour `rgb` ones. */
export function makePng(width: number, height: number, rgb?: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = rgb ? 2 : 0; // truecolour or greyscale
  const pixel = rgb ? Buffer.from(rgb) : Buffer.from([0x80]);
  const row = Buffer.concat([Buffer.from([0]), ...Array.from({ length: width }, () => pixel)]);
  const rows = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The header of a baseline JPEG declaring `width`×`height` (enough for header parsing). */
export function makeJpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
    0x00, 0x00,
  ]);
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** Poll a job over raw HTTP until it is completed or failed. */
export async function waitForJob(
  simulator: Simulator,
  id: string,
): Promise<Record<string, unknown>> {
  for (;;) {
    const response = await call(simulator, `/v1/videos/${id}`);
    const job = (await response.json()) as Record<string, unknown>;
    if (job.status === "completed" || job.status === "failed") return job;
    const hint = Number(response.headers.get("openai-poll-after-ms") ?? 10);
    await new Promise((resolve) => setTimeout(resolve, Math.min(hint, 50)));
  }
}

import { open } from "node:fs/promises";

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The width and height in a PNG file's header, or `undefined` when the file does not start
 * with the PNG signature followed by an `IHDR` chunk.
 *
 * @example
 * const size = await pngSize("frame.png"); // { width: 1280, height: 720 }
 */
export async function pngSize(
  file: string,
): Promise<{ width: number; height: number } | undefined> {
  const handle = await open(file, "r");
  try {
    const header = Buffer.alloc(24);
    const { bytesRead } = await handle.read(header, 0, 24, 0);
    if (bytesRead < 24 || !header.subarray(0, 8).equals(signature)) return undefined;
    if (header.toString("latin1", 12, 16) !== "IHDR") return undefined;
    return { width: header.readUInt32BE(16), height: header.readUInt32BE(20) };
  } finally {
    await handle.close();
  }
}

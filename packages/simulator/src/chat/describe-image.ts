import { parseDataUri } from "../util/data-uri.js";

/** What the simulator can tell about an image from its bytes. */
export interface ImageFacts {
  /** Format read from the bytes (`png`, `jpeg`, `gif`, `webp`) or undefined. */
  format: string | undefined;
  mime: string;
  bytes: number;
  width?: number;
  height?: number;
}

/**
 * Read the format and pixel size of an image from its header (PNG IHDR, JPEG SOFn, GIF, WebP).
 *
 * @example
 * imageFacts(pngBytes, "image/png"); // { format: "png", mime: "image/png", bytes: 1234, width: 64, height: 32 }
 */
export function imageFacts(bytes: Buffer, mime: string): ImageFacts {
  const facts: ImageFacts = { format: undefined, mime, bytes: bytes.length };
  if (
    bytes.length >= 24 &&
    bytes.readUInt32BE(0) === 0x89504e47 &&
    bytes.toString("ascii", 12, 16) === "IHDR"
  ) {
    return {
      ...facts,
      format: "png",
      width: bytes.readUInt32BE(16),
      height: bytes.readUInt32BE(20),
    };
  }
  if (bytes.length >= 10 && bytes.toString("ascii", 0, 3) === "GIF") {
    return { ...facts, format: "gif", width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (
    bytes.length >= 30 &&
    bytes.toString("ascii", 0, 4) === "RIFF" &&
    bytes.toString("ascii", 8, 12) === "WEBP"
  ) {
    const chunk = bytes.toString("ascii", 12, 16);
    if (chunk === "VP8X")
      return {
        ...facts,
        format: "webp",
        width: 1 + bytes.readUIntLE(24, 3),
        height: 1 + bytes.readUIntLE(27, 3),
      };
    if (chunk === "VP8 ")
      return {
        ...facts,
        format: "webp",
        width: bytes.readUInt16LE(26) & 0x3fff,
        height: bytes.readUInt16LE(28) & 0x3fff,
      };
    return { ...facts, format: "webp" };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8)
    return { ...facts, format: "jpeg", ...jpegSize(bytes) };
  return facts;
}

function jpegSize(bytes: Buffer): { width?: number; height?: number } {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return {};
    const marker = bytes[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    const isFrame =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame)
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    offset += 2 + length;
  }
  return {};
}

function formatBytes(count: number): string {
  if (count < 1024) return `${count} bytes`;
  if (count < 1024 * 1024) return `${(count / 1024).toFixed(1)} KiB`;
  return `${(count / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * One sentence describing the image at `url` (a data URI is read; an http(s) URL is not fetched).
 *
 * @example
 * describeImage("data:image/png;base64,...", 1); // "Image 1 is a PNG image (image/png, 68 bytes) of 1×1 pixels."
 */
export function describeImage(url: string, position: number): string {
  const decoded = parseDataUri(url);
  if (!decoded) {
    return `Image ${position} is at ${url}; this service makes no outbound requests, so I did not fetch it and cannot describe it.`;
  }
  const facts = imageFacts(decoded.bytes, decoded.mime);
  const kind = facts.format
    ? `a ${facts.format.toUpperCase()} image`
    : "an image in a format I could not recognise";
  const size =
    facts.width !== undefined && facts.height !== undefined
      ? ` of ${facts.width}×${facts.height} pixels`
      : "";
  const shape =
    facts.width && facts.height
      ? facts.width === facts.height
        ? ", square"
        : facts.width > facts.height
          ? ", in landscape orientation"
          : ", in portrait orientation"
      : "";
  const mismatch =
    facts.format && !decoded.mime.includes(facts.format === "jpeg" ? "jp" : facts.format)
      ? ` (declared as ${decoded.mime})`
      : "";
  return `Image ${position} is ${kind}${mismatch} (${decoded.mime}, ${formatBytes(facts.bytes)})${size}${shape}.`;
}

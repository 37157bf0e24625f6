import { PNG } from "pngjs";

/** An RGB colour. */
type Rgb = [number, number, number];

/** Decoded RGBA pixels. */
interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * The average colour of decoded RGBA pixels (sampled: about 4,096 of them).
 *
 * @example
 * averageColour(PNG.sync.read(bytes)); // [212, 64, 40]
 */
export function averageColour(image: Pixels): Rgb {
  const sum: Rgb = [0, 0, 0];
  const step = Math.max(1, Math.floor((image.width * image.height) / 4096));
  let count = 0;
  for (let pixel = 0; pixel < image.width * image.height; pixel += step) {
    const at = pixel * 4;
    sum[0] += image.data[at] ?? 0;
    sum[1] += image.data[at + 1] ?? 0;
    sum[2] += image.data[at + 2] ?? 0;
    count += 1;
  }
  return sum.map((value) => Math.round(value / Math.max(1, count))) as Rgb;
}

function readPng(bytes: Buffer): PNG | undefined {
  try {
    return PNG.sync.read(bytes);
  } catch {
    return undefined;
  }
}

/** A colour for bytes pngjs cannot read (a JPEG, a WebP): drawn from their hash, stable. */
function colourOfBytes(sha256: string): Rgb {
  return [0, 2, 4].map((at) => Number.parseInt(sha256.slice(at, at + 2), 16)) as Rgb;
}

/**
 * Draw the references of an edit along the bottom of a PNG: a band of one cell per reference,
 * each filled with the reference's average colour and holding its thumbnail (nearest
 * neighbour, fitted), so a series of edits from the same references visibly shares them.
 * A reference that is not a PNG gets a cell of a colour drawn from its hash, without thumbnail.
 *
 * @example
 * const png = compositeReferences(rendered, [{ bytes: sheet, sha256 }]);
 */
export function compositeReferences(
  base: Buffer,
  references: readonly { bytes: Buffer; sha256: string }[],
): Buffer {
  const image = PNG.sync.read(base);
  if (references.length === 0) return base;
  const band = Math.max(8, Math.round(image.height / 5));
  const top = image.height - band;
  const cellWidth = image.width / references.length;
  for (const [index, reference] of references.entries()) {
    const left = Math.round(index * cellWidth);
    const right = Math.round((index + 1) * cellWidth);
    const picture = readPng(reference.bytes);
    const colour = picture ? averageColour(picture) : colourOfBytes(reference.sha256);
    fill(image, left, top, right, image.height, colour);
    if (!picture) continue;
    const margin = Math.max(2, Math.round(band / 10));
    const boxWidth = right - left - 2 * margin;
    const boxHeight = band - 2 * margin;
    const scale = Math.min(boxWidth / picture.width, boxHeight / picture.height);
    const width = Math.max(1, Math.floor(picture.width * scale));
    const height = Math.max(1, Math.floor(picture.height * scale));
    const x0 = left + Math.floor((right - left - width) / 2);
    const y0 = top + Math.floor((band - height) / 2);
    for (let y = 0; y < height; y += 1) {
      const sourceY = Math.min(picture.height - 1, Math.floor(y / scale));
      for (let x = 0; x < width; x += 1) {
        const sourceX = Math.min(picture.width - 1, Math.floor(x / scale));
        const from = (sourceY * picture.width + sourceX) * 4;
        const to = ((y0 + y) * image.width + x0 + x) * 4;
        image.data[to] = picture.data[from] ?? 0;
        image.data[to + 1] = picture.data[from + 1] ?? 0;
        image.data[to + 2] = picture.data[from + 2] ?? 0;
        image.data[to + 3] = 255;
      }
    }
  }
  return PNG.sync.write(image);
}

function fill(image: PNG, x0: number, y0: number, x1: number, y1: number, colour: Rgb): void {
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      const at = (y * image.width + x) * 4;
      image.data[at] = colour[0];
      image.data[at + 1] = colour[1];
      image.data[at + 2] = colour[2];
      image.data[at + 3] = 255;
    }
  }
}

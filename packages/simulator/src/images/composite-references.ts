import { PNG } from "pngjs";

/** An RGB colour. */
type Rgb = [number, number, number];

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

/** Where the references of an image are inset: the top right corner, small, clear of its text. */
export const insetLayout = {
  /** Height of an inset, as a share of the image's height. */
  height: 0.14,
  /** Distance from the top edge (inside the part a 16:9 crop of a 3:2 picture keeps). */
  top: 0.11,
  /** Distance from the right edge and between insets, as a share of the image's width. */
  side: 0.04,
  /** Widest an inset gets, as a share of the image's width. */
  maxWidth: 0.22,
};

/**
 * Inset the references of an edit as small pictures in the top right corner of a PNG, right to
 * left in their order, each with a thin white frame (nearest neighbour, fitted): a series of
 * edits from the same references visibly shares them, and the image's own text stays clear.
 * A reference that is not a PNG gets a square of a colour drawn from its hash.
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
  const boxHeight = Math.max(4, Math.round(image.height * insetLayout.height));
  const top = Math.round(image.height * insetLayout.top);
  const side = Math.max(2, Math.round(image.width * insetLayout.side));
  const frame = Math.max(1, Math.round(boxHeight / 40));
  let right = image.width - side;
  for (const reference of references) {
    const picture = readPng(reference.bytes);
    const aspect = picture ? picture.width / picture.height : 1;
    const width = Math.max(
      1,
      Math.min(Math.round(boxHeight * aspect), Math.round(image.width * insetLayout.maxWidth)),
    );
    const height = picture ? Math.max(1, Math.round(width / aspect)) : boxHeight;
    const left = right - width;
    if (left - frame < 0) break;
    fill(image, left - frame, top - frame, right + frame, top + height + frame, [255, 255, 255]);
    if (picture) {
      const scale = width / picture.width;
      for (let y = 0; y < height; y += 1) {
        const sourceY = Math.min(picture.height - 1, Math.floor(y / scale));
        for (let x = 0; x < width; x += 1) {
          const sourceX = Math.min(picture.width - 1, Math.floor(x / scale));
          const from = (sourceY * picture.width + sourceX) * 4;
          const to = ((top + y) * image.width + left + x) * 4;
          image.data[to] = picture.data[from] ?? 0;
          image.data[to + 1] = picture.data[from + 1] ?? 0;
          image.data[to + 2] = picture.data[from + 2] ?? 0;
          image.data[to + 3] = 255;
        }
      }
    } else {
      fill(image, left, top, right, top + height, colourOfBytes(reference.sha256));
    }
    right = left - side / 2 - 2 * frame;
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

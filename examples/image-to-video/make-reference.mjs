#!/usr/bin/env node
// Writes reference.png: a small 160x90 picture (sky gradient, sun, sea) used as the reference
// image of the clip in pipeline.yaml. The PNG is checked in; run this to make it again:
//   node examples/image-to-video/make-reference.mjs
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const width = 160;
const height = 90;

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const rows = [];
for (let y = 0; y < height; y += 1) {
  const row = Buffer.alloc(1 + width * 3); // filter byte 0, then RGB
  for (let x = 0; x < width; x += 1) {
    const horizon = height * 0.62;
    const sun = Math.hypot(x - 112, y - 40) < 13;
    let rgb;
    if (sun) rgb = [255, 214, 120];
    else if (y < horizon) rgb = [40 + y * 2, 70 + y * 2, 160 + y];
    else rgb = [20, 60 + (y - horizon) * 1.5, 110 + ((x + y) % 7) * 4];
    row.set(
      rgb.map((v) => Math.max(0, Math.min(255, Math.round(v)))),
      1 + x * 3,
    );
  }
  rows.push(row);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(width, 0);
header.writeUInt32BE(height, 4);
header[8] = 8; // bit depth
header[9] = 2; // colour type: RGB
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk("IHDR", header),
  chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk("IEND", Buffer.alloc(0)),
]);
const target = new URL("./reference.png", import.meta.url);
writeFileSync(target, png);
console.log(`wrote ${target.pathname} (${png.length} bytes)`);

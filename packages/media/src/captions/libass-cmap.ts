/**
 * A copy of a TrueType/OpenType font that libass builds before 0.15 (the npm ffmpeg 4.1 has
 * one) can read characters beyond U+FFFF from, or the same bytes when no change is needed.
 *
 * Those libass versions use the first Windows Unicode cmap, which is always the BMP-only
 * (3,1) table since the tables are sorted, so emoji (U+1F600…) are "not found" in any font
 * with both tables. The copy points the (3,1) record at the font's full-Unicode format-12
 * table, which newer libass and FreeType read through (3,10) anyway: one 4-byte change.
 *
 * @example
 * await writeFile(path.join(fontsDirectory, "NotoEmoji.ttf"), withFullUnicodeCmap(bytes));
 */
export function withFullUnicodeCmap(bytes: Buffer): Buffer {
  const cmap = tableOffset(bytes, "cmap");
  if (cmap === undefined || cmap + 4 > bytes.length) return bytes;
  const count = bytes.readUInt16BE(cmap + 2);
  let bmpRecord: number | undefined;
  let fullOffset: number | undefined;
  for (let index = 0; index < count; index++) {
    const record = cmap + 4 + index * 8;
    if (record + 8 > bytes.length) return bytes;
    const platform = bytes.readUInt16BE(record);
    const encoding = bytes.readUInt16BE(record + 2);
    const offset = bytes.readUInt32BE(record + 4);
    if (platform !== 3) continue;
    if (encoding === 1) bmpRecord = record;
    if (encoding === 10 && cmap + offset + 2 <= bytes.length) {
      if (bytes.readUInt16BE(cmap + offset) === 12) fullOffset = offset;
    }
  }
  if (bmpRecord === undefined || fullOffset === undefined) return bytes;
  if (bytes.readUInt32BE(bmpRecord + 4) === fullOffset) return bytes;
  const copy = Buffer.from(bytes);
  copy.writeUInt32BE(fullOffset, bmpRecord + 4);
  return copy;
}

/** Where the table `tag` starts in a single-font sfnt file (not a collection). */
function tableOffset(bytes: Buffer, tag: string): number | undefined {
  if (bytes.length < 12) return undefined;
  const count = bytes.readUInt16BE(4);
  for (let index = 0; index < count; index++) {
    const entry = 12 + index * 16;
    if (entry + 16 > bytes.length) return undefined;
    if (bytes.toString("latin1", entry, entry + 4) === tag) return bytes.readUInt32BE(entry + 8);
  }
  return undefined;
}

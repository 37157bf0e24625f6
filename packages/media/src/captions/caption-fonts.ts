import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Font } from "fontkit";
import { FontFileError } from "../errors/font-file-error.js";
import { bundledFontFile } from "../locate/font-file.js";
import { withFullUnicodeCmap } from "./libass-cmap.js";

/** A font captions can be drawn with. */
export interface CaptionFont {
  /** The file it was read from. */
  file: string;
  /** Its family name, as libass matches it. */
  family: string;
  /** Whether it has a glyph for a code point. */
  covers(codePoint: number): boolean;
  /** The bytes to give libass (see {@link withFullUnicodeCmap}). */
  bytes: Buffer;
}

const require = createRequire(import.meta.url);
/** The directory of an installed package, also for one whose `exports` hide `package.json`. */
function packageDirectory(name: string): string {
  let directory = path.dirname(require.resolve(name));
  while (!existsSync(path.join(directory, "package.json"))) {
    const parent = path.dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return directory;
}

/**
 * The font files captions use after any given ones, in the order they are tried for each
 * character: DejaVu Sans (Latin, Greek, Cyrillic, Arabic, Hebrew, symbols), Noto Emoji
 * (monochrome emoji) and Noto Sans S Chinese (Chinese, Japanese kana and kanji), all from
 * npm packages.
 *
 * @example
 * bundledCaptionFontFiles(); // [".../DejaVuSans.ttf", ".../NotoEmoji_400Regular.ttf", ".../NotoSansHans-Regular.otf"]
 */
export function bundledCaptionFontFiles(): string[] {
  return [
    bundledFontFile(),
    path.join(
      packageDirectory("@expo-google-fonts/noto-emoji"),
      "400Regular",
      "NotoEmoji_400Regular.ttf",
    ),
    path.join(packageDirectory("@embedpdf/fonts-sc"), "fonts", "NotoSansHans-Regular.otf"),
  ];
}

const cache = new Map<string, Promise<CaptionFont>>();

/**
 * Read a TrueType/OpenType font (the first face of a collection) for captions; the result is
 * cached per file. WOFF/WOFF2 and files that are not fonts are a {@link FontFileError}.
 *
 * @example
 * const font = await loadCaptionFont("/usr/share/fonts/NotoSansKR-Regular.otf");
 * font.covers("한".codePointAt(0)); // true
 */
export function loadCaptionFont(file: string): Promise<CaptionFont> {
  const absolute = path.resolve(file);
  let loaded = cache.get(absolute);
  if (!loaded) {
    loaded = readCaptionFont(absolute);
    cache.set(absolute, loaded);
    loaded.catch(() => cache.delete(absolute));
  }
  return loaded;
}

async function readCaptionFont(file: string): Promise<CaptionFont> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new FontFileError(file, `it cannot be read (${(error as Error).message})`, error);
  }
  const magic = bytes.toString("latin1", 0, 4);
  if (magic === "wOFF" || magic === "wOF2") {
    throw new FontFileError(file, "it is a web font (WOFF), which libass cannot read");
  }
  // Loaded on use: fontkit decompresses its tables when imported (tens of ms), which nothing
  // but captions needs.
  const { create } = await import("fontkit");
  let font: Font;
  try {
    const parsed = create(bytes);
    const first = "fonts" in parsed ? parsed.fonts[0] : parsed;
    if (!first) throw new Error("an empty collection");
    font = first;
  } catch (error) {
    throw new FontFileError(file, `it is not a font (${(error as Error).message})`, error);
  }
  const family = font.familyName;
  if (!family || /[\\{},]/.test(family)) {
    throw new FontFileError(
      file,
      `its family name ${JSON.stringify(family)} cannot be named in ASS`,
    );
  }
  const coverage = new Map<number, boolean>();
  return {
    file,
    family,
    bytes: magic === "ttcf" ? bytes : withFullUnicodeCmap(bytes),
    covers(codePoint) {
      let covered = coverage.get(codePoint);
      if (covered === undefined) {
        covered = font.hasGlyphForCodePoint(codePoint);
        coverage.set(codePoint, covered);
      }
      return covered;
    },
  };
}

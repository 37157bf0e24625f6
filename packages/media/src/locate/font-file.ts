import { createRequire } from "node:module";
import path from "node:path";

/**
 * Absolute path of DejaVu Sans from the `dejavu-fonts-ttf` package, so `drawtext` works on a
 * machine without any installed fonts.
 *
 * @example
 * const font = bundledFontFile(); // ".../dejavu-fonts-ttf/ttf/DejaVuSans.ttf"
 */
export function bundledFontFile(): string {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve("dejavu-fonts-ttf/package.json");
  return path.join(path.dirname(packageJson), "ttf", "DejaVuSans.ttf");
}

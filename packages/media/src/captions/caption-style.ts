import colorString from "color-string";
import { defaultMaxLineLength } from "./wrap-caption.js";

/** How burnt-in captions look. Sizes are pixels of the video. */
export interface CaptionStyle {
  /** Text height in pixels (default 6 % of the video's height, at least 12). */
  fontSize?: number;
  /** Text colour, CSS-like: `#rrggbb`, `#rgb`, `#rrggbbaa`, `rgb(…)`, a name (default `white`). */
  color?: string;
  /** Outline thickness in pixels (default 1/16 of the font size, at least 1; 0 for none). */
  outlineWidth?: number;
  /** Outline colour (default `black`). */
  outlineColor?: string;
  /** Where the captions sit (default `bottom`); they are always centred horizontally. */
  position?: "bottom" | "top" | "middle";
  /** Distance from the top or bottom edge, and the least from the sides (default 5 % of the height). */
  margin?: number;
  /** Columns per line before wrapping (default 42; a CJK character or emoji counts two). */
  maxLineLength?: number;
  /** Bold text (synthesised where the font has no bold face). */
  bold?: boolean;
}

/** A style with every value decided, in ASS terms. */
export interface ResolvedCaptionStyle {
  fontSize: number;
  /** `&HAABBGGRR`. */
  primaryColour: string;
  outlineColour: string;
  outlineWidth: number;
  /** ASS numpad alignment: 2 bottom, 5 middle, 8 top (centred). */
  alignment: 2 | 5 | 8;
  marginVertical: number;
  marginHorizontal: number;
  maxLineLength: number;
  bold: boolean;
}

/**
 * A CSS colour as an ASS colour, `&HAABBGGRR` (ASS stores blue first and transparency, not
 * opacity). Throws a `TypeError` naming the option for anything else.
 *
 * @example
 * assColour("#ff8800"); // "&H000088FF"
 * assColour("rgba(0, 0, 0, 0.5)"); // "&H80000000"
 */
export function assColour(colour: string, option = "color"): string {
  const rgba = typeof colour === "string" ? colorString.get.rgb(colour.trim()) : null;
  if (!rgba) {
    throw new TypeError(
      `Expected \`${option}\` to be a colour such as #ffcc00, white or rgba(0,0,0,0.5); got ${JSON.stringify(colour)}`,
    );
  }
  const [red = 0, green = 0, blue = 0, alpha = 1] = rgba;
  const hex = (value: number) => Math.round(value).toString(16).toUpperCase().padStart(2, "0");
  return `&H${hex((1 - alpha) * 255)}${hex(blue)}${hex(green)}${hex(red)}`;
}

/**
 * Fill in a style's defaults for a video of `height` pixels and check its values.
 *
 * @example
 * resolveCaptionStyle({ color: "yellow", position: "top" }, 720);
 * // { fontSize: 43, primaryColour: "&H0000FFFF", alignment: 8, marginVertical: 36, … }
 */
export function resolveCaptionStyle(style: CaptionStyle, height: number): ResolvedCaptionStyle {
  const number = (
    name: keyof CaptionStyle,
    value: number | undefined,
    fallback: number,
    least: number,
  ) => {
    if (value === undefined) return fallback;
    if (!(Number.isFinite(value) && value >= least)) {
      throw new TypeError(`Expected \`style.${name}\` to be a number from ${least}; got ${value}`);
    }
    return value;
  };
  const fontSize = number("fontSize", style.fontSize, Math.max(12, Math.round(height * 0.06)), 1);
  const position = style.position ?? "bottom";
  const alignments = { bottom: 2, middle: 5, top: 8 } as const;
  if (!(position in alignments)) {
    throw new TypeError(
      `Expected \`style.position\` to be bottom, top or middle; got ${JSON.stringify(position)}`,
    );
  }
  const maxLineLength = number("maxLineLength", style.maxLineLength, defaultMaxLineLength, 1);
  if (!Number.isInteger(maxLineLength)) {
    throw new TypeError(
      `Expected \`style.maxLineLength\` to be a whole number; got ${maxLineLength}`,
    );
  }
  const margin = number("margin", style.margin, Math.round(height * 0.05), 0);
  return {
    fontSize,
    primaryColour: assColour(style.color ?? "white", "style.color"),
    outlineColour: assColour(style.outlineColor ?? "black", "style.outlineColor"),
    outlineWidth: number(
      "outlineWidth",
      style.outlineWidth,
      Math.max(1, Math.round(fontSize / 16)),
      0,
    ),
    alignment: alignments[position],
    marginVertical: margin,
    marginHorizontal: margin,
    maxLineLength,
    bold: style.bold === true,
  };
}

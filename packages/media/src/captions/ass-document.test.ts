import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { assDocument, assTime } from "./ass-document.js";
import { bundledCaptionFontFiles, loadCaptionFont } from "./caption-fonts.js";
import { assColour, resolveCaptionStyle } from "./caption-style.js";
import { fontRuns } from "./font-runs.js";
import { withFullUnicodeCmap } from "./libass-cmap.js";

const bundled = () => Promise.all(bundledCaptionFontFiles().map((file) => loadCaptionFont(file)));

describe("assColour", () => {
  it("turns CSS colours into &HAABBGGRR", () => {
    expect(assColour("#ff8800")).toBe("&H000088FF");
    expect(assColour("#f80")).toBe("&H000088FF");
    expect(assColour("white")).toBe("&H00FFFFFF");
    expect(assColour("Yellow")).toBe("&H0000FFFF");
    expect(assColour("rgba(0, 0, 255, 0.5)")).toBe("&H80FF0000");
    expect(assColour("#11223300")).toBe("&HFF332211");
  });

  it("names the option when a colour is not one", () => {
    expect(() => assColour("blurple", "style.color")).toThrow(
      'Expected `style.color` to be a colour such as #ffcc00, white or rgba(0,0,0,0.5); got "blurple"',
    );
  });
});

describe("resolveCaptionStyle", () => {
  it("scales the defaults to the video and maps the position", () => {
    expect(resolveCaptionStyle({}, 720)).toEqual({
      fontSize: 43,
      primaryColour: "&H00FFFFFF",
      outlineColour: "&H00000000",
      outlineWidth: 3,
      alignment: 2,
      marginVertical: 36,
      marginHorizontal: 36,
      maxLineLength: 42,
      bold: false,
    });
    expect(resolveCaptionStyle({ position: "top", margin: 10, fontSize: 20 }, 180)).toMatchObject({
      alignment: 8,
      marginVertical: 10,
      fontSize: 20,
      outlineWidth: 1,
    });
    expect(resolveCaptionStyle({ position: "middle", outlineWidth: 0 }, 180)).toMatchObject({
      alignment: 5,
      outlineWidth: 0,
    });
  });

  it("refuses values that cannot be drawn", () => {
    expect(() => resolveCaptionStyle({ fontSize: 0 }, 720)).toThrow(/style\.fontSize/);
    // @ts-expect-error: not a position
    expect(() => resolveCaptionStyle({ position: "left" }, 720)).toThrow(/bottom, top or middle/);
    expect(() => resolveCaptionStyle({ maxLineLength: 1.5 }, 720)).toThrow(/whole number/);
    expect(() => resolveCaptionStyle({ outlineColor: "#12" }, 720)).toThrow(/style\.outlineColor/);
  });
});

describe("fontRuns with the bundled fonts", () => {
  it("draws Latin with DejaVu Sans, emoji with Noto Emoji, CJK with Noto Sans S Chinese", async () => {
    const fonts = await bundled();
    expect(fonts.map((font) => font.family)).toEqual([
      "DejaVu Sans",
      "Noto Emoji",
      "Noto Sans S Chinese Regular",
    ]);
    expect(fontRuns("Café ñ ø 日本語の字幕 中文字幕 🎬😀!", fonts)).toEqual({
      runs: [
        { font: 0, text: "Café ñ ø " },
        { font: 2, text: "日本語の字幕" },
        { font: 0, text: " " },
        { font: 2, text: "中文字幕" },
        { font: 0, text: " " },
        { font: 1, text: "🎬😀" },
        { font: 0, text: "!" },
      ],
      missing: [],
    });
  });

  it("keeps a combining accent with its letter and an emoji sequence whole", async () => {
    const fonts = await bundled();
    expect(fontRuns("e\u0301 👍🏽 ❤️", fonts).runs).toEqual([
      { font: 0, text: "e\u0301 " },
      { font: 1, text: "👍🏽" },
      { font: 0, text: " " },
      { font: 1, text: "❤️" },
    ]);
  });

  it("leaves out what no font has (Hangul here) and lists it once", async () => {
    const fonts = await bundled();
    expect(fontRuns(" 한 Hi 한국 한 ok 한", fonts)).toEqual({
      runs: [{ font: 0, text: "Hi ok" }],
      missing: ["한", "국"],
    });
  });
});

describe("assDocument", () => {
  it("writes one style at the video's pixels and one event per non-empty cue", async () => {
    const fonts = await bundled();
    const { text, missing } = assDocument({
      cues: [
        { index: 0, start: 0, end: 1.755, text: "<i>Dawn</i> {at} C:\\New" },
        { index: 1, start: 1.755, end: 2, text: "  " },
        { index: 2, start: 2, end: 3723.456, text: "日本語 and 🎬" },
      ],
      style: resolveCaptionStyle({ color: "#ffd500", position: "top", maxLineLength: 42 }, 360),
      fonts,
      width: 640,
      height: 360,
    });
    expect(missing).toEqual([]);
    expect(text).toContain("PlayResX: 640\nPlayResY: 360\n");
    expect(text).toContain(
      "Style: Caption,DejaVu Sans,22,&H0000D5FF,&H0000D5FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,8,18,18,18,1\n",
    );
    const events = text.split("\n").filter((line) => line.startsWith("Dialogue:"));
    expect(events).toEqual([
      "Dialogue: 0,0:00:00.00,0:00:01.76,Caption,,0,0,0,,Dawn \\{at\\} C:\\\u2060New",
      "Dialogue: 0,0:00:02.00,1:02:03.46,Caption,,0,0,0,,{\\fnNoto Sans S Chinese Regular}日本語{\\fnDejaVu Sans} and {\\fnNoto Emoji}🎬",
    ]);
  });

  it("times in centiseconds", () => {
    expect(assTime(0)).toBe("0:00:00.00");
    expect(assTime(59.996)).toBe("0:01:00.00");
    expect(assTime(3723.456)).toBe("1:02:03.46");
  });
});

describe("withFullUnicodeCmap", () => {
  it("points the BMP Windows cmap at the full-Unicode table, once, and leaves the rest", async () => {
    const [dejavu, emoji] = bundledCaptionFontFiles();
    for (const file of [dejavu, emoji]) {
      const bytes = await readFile(file as string);
      const patched = withFullUnicodeCmap(bytes);
      expect(patched).not.toBe(bytes);
      expect(patched.length).toBe(bytes.length);
      const changed = [...patched.keys()].filter((index) => patched[index] !== bytes[index]);
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.length).toBeLessThanOrEqual(4);
      expect(withFullUnicodeCmap(patched)).toBe(patched);
    }
  });
});

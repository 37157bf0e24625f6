import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { wrapCaption } from "./wrap-caption.js";

describe("wrapCaption", () => {
  it("breaks at spaces, keeping punctuation with its word", () => {
    expect(wrapCaption("A lighthouse keeper at dawn, watching the storm", 20)).toEqual([
      "A lighthouse keeper",
      "at dawn, watching",
      "the storm",
    ]);
    expect(wrapCaption("Short", 20)).toEqual(["Short"]);
  });

  it("counts CJK characters as two columns and breaks between them, not before 。", () => {
    expect(wrapCaption("日本語の字幕です。", 8)).toEqual(["日本語の", "字幕で", "す。"]);
    expect(wrapCaption("日本語の字幕です。", 10)).toEqual(["日本語の字", "幕です。"]);
    const lines = wrapCaption("中文字幕很好看，我们都喜欢。", 10);
    expect(lines.join("")).toBe("中文字幕很好看，我们都喜欢。");
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(10 + 2);
    for (const line of lines.slice(1)) expect(line).not.toMatch(/^[，。]/);
  });

  it("never splits a grapheme cluster: combining accents, emoji sequences, flags", () => {
    const decomposed = "e\u0301te\u0301 ".repeat(6).trim(); // été written with combining accents
    for (const line of wrapCaption(decomposed, 4)) expect(line.normalize("NFC")).toBe("été");
    const family = "👨‍👩‍👧";
    const lines = wrapCaption(`${family}${family}🇯🇵🇯🇵🇯🇵`, 2);
    expect(lines).toEqual([family, family, "🇯🇵", "🇯🇵", "🇯🇵"]);
  });

  it("cuts a word longer than a line between clusters", () => {
    expect(wrapCaption("Supercalifragilistic", 8)).toEqual(["Supercal", "ifragili", "stic"]);
  });

  it("keeps line breaks from the text and collapses runs of spaces", () => {
    expect(wrapCaption("One  two\n\n  three\r\nfour", 42)).toEqual(["One two", "three", "four"]);
  });

  it("refuses a length that is not a whole number from 1", () => {
    expect(() => wrapCaption("x", 0)).toThrow(/maxLineLength/);
    expect(() => wrapCaption("x", 2.5)).toThrow(/maxLineLength/);
  });
});

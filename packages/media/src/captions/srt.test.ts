import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { CaptionsFileError } from "../errors/captions-file-error.js";
import { formatSrt } from "./format-srt.js";
import { parseSrt, readSrtFile } from "./parse-srt.js";
import { formatSrtTime, parseSrtTime } from "./srt-time.js";

const work = useTempDirectory();

describe("SRT times", () => {
  it("formats HH:MM:SS,mmm rounded to the millisecond, hours past 99 included", () => {
    expect(formatSrtTime(0)).toBe("00:00:00,000");
    expect(formatSrtTime(1.75)).toBe("00:00:01,750");
    expect(formatSrtTime(3723.4567)).toBe("01:02:03,457");
    expect(formatSrtTime(59.9996)).toBe("00:01:00,000");
    expect(formatSrtTime(360_000.001)).toBe("100:00:00,001");
    expect(() => formatSrtTime(-1)).toThrow(TypeError);
  });

  it("parses what it formats, and the forms ffmpeg accepts", () => {
    for (const seconds of [0, 1.75, 3723.457, 360_000.001]) {
      expect(parseSrtTime(formatSrtTime(seconds))).toBeCloseTo(seconds, 9);
    }
    expect(parseSrtTime("00:00:02.500")).toBe(2.5);
    expect(parseSrtTime("00:00:02,5")).toBe(2.005);
    expect(parseSrtTime("01:02")).toBe(62);
    expect(parseSrtTime("00:61:00,000")).toBeUndefined();
    expect(parseSrtTime("1.5")).toBeUndefined();
  });
});

describe("formatSrt", () => {
  it("numbers the cues, wraps long lines and leaves empty cues out", () => {
    const srt = formatSrt(
      [
        { index: 0, start: 0, end: 1.75, text: "A lighthouse keeper at dawn, watching the storm" },
        { index: 1, start: 1.75, end: 4.75, text: "" },
        { index: 2, start: 4.75, end: 5.75, text: "日本語の字幕です。中文字幕，很好。" },
      ],
      { maxLineLength: 20 },
    );
    expect(srt).toBe(
      [
        "1",
        "00:00:00,000 --> 00:00:01,750",
        "A lighthouse keeper",
        "at dawn, watching",
        "the storm",
        "",
        "2",
        "00:00:04,750 --> 00:00:05,750",
        "日本語の字幕です。中",
        "文字幕，很好。",
        "",
      ].join("\n"),
    );
  });

  it("round-trips through parseSrt, accents, CJK and emoji intact", () => {
    const cues = [
      { index: 0, start: 0, end: 1.2, text: "Café, niño, smørrebrød" },
      { index: 1, start: 1.2, end: 2.9, text: "日本語の字幕\n中文字幕" },
      { index: 2, start: 2.9, end: 3.9, text: "The end 🎬 👨‍👩‍👧" },
    ];
    expect(parseSrt(formatSrt(cues))).toEqual(cues);
  });
});

describe("parseSrt", () => {
  it("reads CRLF, a byte-order mark, no cue numbers, position hints and a missing blank line", () => {
    const text =
      "\uFEFF1\r\n00:00:01,000 --> 00:00:02,500 X1:10 X2:20\r\nHello\r\nthere\r\n\r\n\r\n" +
      "00:00:02.500 --> 00:00:04,000\r\nno number\r\n3\r\n00:00:04,000 --> 00:00:05,000\r\nsqueezed\r\n";
    expect(parseSrt(text)).toEqual([
      { index: 0, start: 1, end: 2.5, text: "Hello\nthere" },
      { index: 1, start: 2.5, end: 4, text: "no number" },
      { index: 2, start: 4, end: 5, text: "squeezed" },
    ]);
  });

  it("names the line and what it expected", () => {
    const attempt = (text: string) => {
      try {
        parseSrt(text, "story.srt");
      } catch (error) {
        return error;
      }
      throw new Error("expected an error");
    };
    expect(attempt("1\n00:00:01,000 -> 00:00:02,000\nHello\n")).toMatchObject({
      code: "captions_file_invalid",
      file: "story.srt",
      line: 1,
      message: expect.stringMatching(/^story\.srt:1: expected a cue number or a time line/),
    });
    expect(attempt("1\n00:00:01,000 --> 00:00:xx,000\nHello\n")).toMatchObject({
      line: 2,
      message: expect.stringMatching(/expected times as HH:MM:SS,mmm/),
    });
    expect(attempt("\n\n1\n00:00:03,000 --> 00:00:02,000\nBack\n")).toMatchObject({
      line: 4,
      message: expect.stringMatching(/ends \(00:00:02,000\) before it starts/),
    });
    expect(attempt("   \n\n")).toMatchObject({ message: expect.stringMatching(/has no captions/) });
  });
});

describe("readSrtFile", () => {
  it("refuses a missing file, a directory and bytes that are not UTF-8", async () => {
    const missing = path.join(work(), "nope.srt");
    await expect(readSrtFile(missing)).rejects.toMatchObject({
      code: "captions_file_unreadable",
      file: missing,
      message: expect.stringMatching(/no such file/),
    });
    const directory = path.join(work(), "folder.srt");
    await mkdir(directory);
    await expect(readSrtFile(directory)).rejects.toMatchObject({ message: /is a directory/ });
    const binary = path.join(work(), "binary.srt");
    await writeFile(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00]));
    const error = await readSrtFile(binary).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CaptionsFileError);
    expect(error).toMatchObject({ message: expect.stringMatching(/not UTF-8/) });
  });

  it("reads a UTF-8 file", async () => {
    const file = path.join(work(), "ok.srt");
    await writeFile(file, "1\n00:00:00,000 --> 00:00:01,000\nÉté ☀\n", "utf8");
    expect(await readSrtFile(file)).toEqual([{ index: 0, start: 0, end: 1, text: "Été ☀" }]);
  });
});

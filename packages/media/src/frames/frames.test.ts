import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { probe } from "../probe/probe.js";
import { synthesizeClip } from "../synthesize/synthesize-clip.js";
import { contactSheet } from "./contact-sheet.js";
import { thumbnail } from "./thumbnail.js";

const work = useTempDirectory();
const file = (name: string) => path.join(work(), name);
const clips: string[] = [];

beforeAll(async () => {
  for (const [index, text] of ["Dawn", "Storm", "Calm"].entries()) {
    clips.push(
      (
        await synthesizeClip({
          output: file(`scene ${index} '${text}'.mp4`),
          seconds: 1,
          size: "320x180",
          text,
        })
      ).output,
    );
  }
});

describe("thumbnail", () => {
  it("writes one frame, scaled to a width, even to a name with a % pattern", async () => {
    const { output } = await thumbnail(clips[0] as string, {
      output: file("poster %d.png"),
      width: 160,
      at: 0.5,
    });
    expect(path.basename(output)).toBe("poster %d.png");
    expect(await probe(output)).toMatchObject({ width: 160, height: 90 });
  });

  it("writes a JPEG at full size by default and clamps a time past the end", async () => {
    const { output } = await thumbnail(clips[1] as string, { output: file("poster.jpg"), at: 99 });
    expect(await probe(output)).toMatchObject({ width: 320, height: 180 });
  });

  it("refuses a non-image output", async () => {
    await expect(thumbnail(clips[0] as string, { output: file("poster.mp4") })).rejects.toThrow(
      /image output/,
    );
  });
});

describe("contactSheet", () => {
  it("lays frames out in a grid with captions, filling the last row", async () => {
    const { output } = await contactSheet(clips, {
      output: file("sheet.png"),
      columns: 2,
      tileWidth: 200,
      labels: ["1: Dawn", "2: it's [a] storm, 100%", "3: Calm"],
    });
    expect(await probe(output)).toMatchObject({ width: 400, height: 224 });
  });

  it("puts everything in one row by default", async () => {
    const { output } = await contactSheet(clips, { output: file("row.png") });
    expect(await probe(output)).toMatchObject({ width: 960, height: 180 });
  });
});

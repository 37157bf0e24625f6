import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { withScratchDirectory, withTempOutput } from "./temp-output.js";

const work = useTempDirectory();

describe("withTempOutput", () => {
  it("writes beside the destination under a safe name and renames on success", async () => {
    const destination = path.join(work(), "out", "final 100%d 'x'.mp4");
    let temp = "";
    await withTempOutput(destination, async (file) => {
      temp = file;
      await writeFile(file, "done");
    });
    expect(path.dirname(temp)).toBe(path.dirname(destination));
    expect(path.basename(temp)).toMatch(/^\.final_100_d__x_\.[0-9a-f]{8}\.tmp\.mp4$/);
    expect(await readFile(destination, "utf8")).toBe("done");
    expect(await readdir(path.dirname(destination))).toEqual([path.basename(destination)]);
  });

  it("leaves nothing at the destination when the write fails", async () => {
    const destination = path.join(work(), "failed", "final.mp4");
    await expect(
      withTempOutput(destination, async (file) => {
        await writeFile(file, "half");
        throw new Error("ffmpeg died");
      }),
    ).rejects.toThrow("ffmpeg died");
    expect(await readdir(path.dirname(destination))).toEqual([]);
  });
});

describe("withScratchDirectory", () => {
  it("removes its directory afterwards, also on failure", async () => {
    const near = path.join(work(), "scratch", "final.mp4");
    await expect(
      withScratchDirectory(near, async (directory) => {
        await writeFile(path.join(directory, "list.txt"), "x");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await readdir(path.dirname(near))).toEqual([]);
  });
});

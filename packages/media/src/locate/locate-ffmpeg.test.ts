import { access, chmod, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDirectory } from "../../test/fixtures.js";
import { FfmpegNotFoundError } from "../errors/ffmpeg-not-found-error.js";
import { ensureExecutable, npmCandidate } from "./binary-candidates.js";
import { locateFfmpeg } from "./locate-ffmpeg.js";

const work = useTempDirectory();
const savedFfmpegPath = process.env.FFMPEG_PATH;

// A failed lookup is not cached, so restoring the variable is enough for later tests.
afterEach(() => {
  if (savedFfmpegPath === undefined) delete process.env.FFMPEG_PATH;
  else process.env.FFMPEG_PATH = savedFfmpegPath;
});

describe("locateFfmpeg", () => {
  it("finds both binaries with versions, capabilities and a font file", async () => {
    const tools = await locateFfmpeg();
    expect(tools.ffmpeg.version).toMatch(/\S/);
    expect(tools.ffprobe.version).toMatch(/\S/);
    expect(["env", "path", "npm"]).toContain(tools.ffmpeg.source);
    expect(tools.capabilities).toMatchObject({ libx264: true, aac: true, drawtext: true });
    expect(typeof tools.capabilities.xfade).toBe("boolean");
    // every build has a way to make transitions: xfade, or fade + overlay on older ones
    expect(tools.capabilities.transitions).toBe(true);
    await access(tools.fontFile);
    expect(path.basename(tools.fontFile)).toBe("DejaVuSans.ttf");
  });

  it("caches the result until refresh is asked for", async () => {
    const first = locateFfmpeg();
    expect(locateFfmpeg()).toBe(first);
    expect(locateFfmpeg({ refresh: true })).not.toBe(first);
  });

  it("fails loudly when FFMPEG_PATH names a missing file instead of falling back", async () => {
    process.env.FFMPEG_PATH = path.join(work(), "no-such-ffmpeg");
    const error = await locateFfmpeg({ refresh: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FfmpegNotFoundError);
    expect((error as FfmpegNotFoundError).code).toBe("ffmpeg_not_found");
    expect((error as FfmpegNotFoundError).message).toContain("no-such-ffmpeg");
  });

  it("does not cache a failed lookup", async () => {
    process.env.FFMPEG_PATH = path.join(work(), "missing-again");
    await expect(locateFfmpeg({ refresh: true })).rejects.toBeInstanceOf(FfmpegNotFoundError);
    if (savedFfmpegPath === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = savedFfmpegPath;
    await expect(locateFfmpeg()).resolves.toHaveProperty("ffmpeg.version");
  });

  it("rejects a FFMPEG_PATH that runs but is not ffmpeg", async () => {
    const fake = path.join(work(), "fake-ffmpeg");
    await writeFile(fake, "#!/bin/sh\necho hello\n");
    await chmod(fake, 0o755);
    process.env.FFMPEG_PATH = fake;
    await expect(locateFfmpeg({ refresh: true })).rejects.toThrow(/did not identify ffmpeg/);
  });
});

describe("npm-shipped binaries", () => {
  it("resolves the platform package of @ffmpeg-installer and @ffprobe-installer", async () => {
    for (const name of ["ffmpeg", "ffprobe"] as const) {
      const candidate = npmCandidate(name);
      if (!candidate) continue; // optional dependency not installed on this platform
      expect(candidate.source).toBe("npm");
      expect((await stat(candidate.path)).isFile()).toBe(true);
    }
  });

  it("restores a lost executable bit on an npm binary it owns", async () => {
    const file = path.join(work(), "ffprobe-without-x");
    await writeFile(file, "#!/bin/sh\n");
    await chmod(file, 0o644);
    expect(await ensureExecutable({ path: file, source: "npm" })).toEqual({ ok: true });
    expect((await stat(file)).mode & 0o100).toBe(0o100);
  });

  it("explains, without touching it, a non-executable binary from FFPROBE_PATH", async () => {
    const file = path.join(work(), "user-ffprobe");
    await writeFile(file, "#!/bin/sh\n");
    await chmod(file, 0o644);
    const result = await ensureExecutable({ path: file, source: "env" });
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.reason).toContain("chmod +x");
    expect((await stat(file)).mode & 0o111).toBe(0);
  });
});

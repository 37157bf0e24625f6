import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { OutputPathError } from "../errors/output-path-error.js";
import { resolveOutputPath } from "./resolve-output-path.js";

describe("resolveOutputPath", () => {
  const runDir = mkdtempSync(join(tmpdir(), "reelsmith-path-"));
  const outside = mkdtempSync(join(tmpdir(), "reelsmith-outside-"));
  mkdirSync(join(runDir, "clips"));
  symlinkSync(outside, join(runDir, "escape"));

  it("resolves a relative path inside the run directory", () => {
    expect(resolveOutputPath(runDir, "clips/scene-1.mp4")).toBe(
      join(runDir, "clips", "scene-1.mp4"),
    );
    expect(resolveOutputPath(runDir, "new/dir/a.mp4")).toBe(join(runDir, "new", "dir", "a.mp4"));
  });

  it.each([
    ["../x.mp4", "'..'"],
    ["clips/../../x.mp4", "'..'"],
    ["/etc/passwd", "absolute"],
    ["", "empty"],
    ["a\0b", "NUL"],
    ["escape/x.mp4", "symlink"],
  ])("refuses %j", (path, reason) => {
    expect(() => resolveOutputPath(runDir, path)).toThrow(OutputPathError);
    expect(() => resolveOutputPath(runDir, path)).toThrow(reason);
  });
});

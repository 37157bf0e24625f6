import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { synthesizeClip } from "@reelsmith/media/synthesize";
import { describe, expect, it } from "vitest";
import { runPipeline } from "../src/run-pipeline.js";

describe("an ffmpeg failure", () => {
  it("names the step, where it is written and ffmpeg's one line, and keeps the whole output", async () => {
    const root = mkdtempSync(join(tmpdir(), "reelsmith-ffmpeg-fail-"));
    const whole = join(root, "whole.mp4");
    await synthesizeClip({ output: whole, seconds: 1, size: "320x240", text: "whole" });
    // A clip cut short: its first bytes say MP4 (so the checks before the run pass), the rest
    // is missing, so ffmpeg cannot read it.
    writeFileSync(join(root, "cut.mp4"), readFileSync(whole).subarray(0, 2048));
    const file = join(root, "join.yaml");
    writeFileSync(
      file,
      [
        "name: join",
        "steps:",
        "  - id: joined",
        "    ffmpeg:",
        "      concat: [whole.mp4, cut.mp4]",
        "      output: joined.mp4",
        "",
      ].join("\n"),
    );
    const result = await runPipeline(file, { runsRoot: join(root, "runs"), cache: false });
    expect(result.status).toBe("failed");
    // Relative to the working directory when inside it; here it is not.
    const inside = relative(process.cwd(), file);
    const shown = inside.startsWith("..") ? file : inside;
    expect(result.error).toMatchObject({
      code: "step_failed",
      step: "joined",
      location: `${shown}:3:5`,
    });
    const message = String(result.error?.message);
    expect(message).toMatch(
      new RegExp(
        `^step "joined" \\(${shown.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:3:5\\) failed: (ffmpeg|ffprobe) exited with code 1: `,
      ),
    );
    // One line of ffmpeg's, not its whole output.
    expect(message).not.toContain("\n");
    expect(message).toMatch(/cut\.mp4|Invalid data|moov atom/);
    const log = /its whole output: (logs\/[^)]+)\)/.exec(message)?.[1];
    const named = /failed: (ffmpeg|ffprobe) exited/.exec(message)?.[1];
    expect(log).toBe(`logs/joined.${named}.log`);
    const kept = readFileSync(join(result.runDir, String(log)), "utf8");
    expect(kept.split("\n")[0]).toMatch(new RegExp(`^\\$ ${named} .*cut\\.mp4`));
    expect(kept.length).toBeGreaterThan(message.length);
    expect(existsSync(join(result.runDir, "joined.mp4"))).toBe(false);
  });
});

// Why @reelsmith/media runs ffmpeg with child_process.spawn instead of fluent-ffmpeg:
// fluent-ffmpeg computes `progress.percent` against the FIRST input's duration, so a join of
// a 2 s clip and an 8 s clip reports 500 %. Run with the binary under test, e.g.
//   FFMPEG_PATH=... FFPROBE_PATH=... node bench/fluent-ffmpeg-progress.mjs
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { locateFfmpeg } from "../dist/index.js";
import { synthesizeClip } from "../dist/synthesize-entry.js";

const require = createRequire(import.meta.url);
const fluent = require("fluent-ffmpeg");
const tools = await locateFfmpeg();
fluent.setFfmpegPath(tools.ffmpeg.path);
fluent.setFfprobePath(tools.ffprobe.path);
const work = await mkdtemp(path.join(tmpdir(), "reelsmith-fluent-"));
try {
  const short = await synthesizeClip({
    output: path.join(work, "short.mp4"),
    seconds: 2,
    size: "320x240",
    text: "2 s",
  });
  const long = await synthesizeClip({
    output: path.join(work, "long.mp4"),
    seconds: 8,
    size: "320x240",
    text: "8 s",
  });
  const percents = [];
  await new Promise((resolve, reject) => {
    fluent()
      .input(short.output)
      .input(long.output)
      .complexFilter("[0:v][0:a][1:v][1:a]concat=n=2:v=1:a=1[v][a]", ["v", "a"])
      .outputOptions(["-c:v libx264", "-preset ultrafast"])
      .on("progress", (progress) => percents.push(Math.round(progress.percent)))
      .on("error", reject)
      .on("end", resolve)
      .save(path.join(work, "joined.mp4"));
  });
  console.log(
    `ffmpeg ${tools.ffmpeg.version}: fluent-ffmpeg progress.percent for a 10 s output: ${JSON.stringify(percents)}`,
  );
} finally {
  await rm(work, { recursive: true, force: true });
}

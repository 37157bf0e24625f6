// P10: the film's tail. The narrated example (examples/narrated) through `runPipeline`
// against the simulator, its paid steps served from the cache after a first run: the time
// from its last clip in (the `clips` step's end) to both finals out (the `wide` and `tall`
// steps' ends), against one ffmpeg invocation this script builds that makes the same two
// finals from the same clips, narration, music and words: each clip cut or held to its
// narration's length, crossfaded (overlay, as ffmpeg 4.1 has no xfade), the narration placed,
// the music faded and ducked under it, normalised to −14 LUFS, the words burnt in (the ASS
// scripts the run laid out), the 16:9 film and its 9:16 blur-padded frame. Same ffmpeg, same
// H.264 and AAC settings, alternating rounds.
//   node bench/p10-tail.mjs [--scenes=3] [--rounds=5] [--story="…"] (default: the example's)
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  alternate,
  benchOptions,
  builtPackage,
  now,
  report,
  root,
  smoke,
  timeProcess,
} from "./lib.mjs";

const { scenes, rounds, story } = benchOptions(
  { scenes: 3, rounds: 5, story: "" },
  // A short film: three short sentences, three short clips.
  { rounds: 1, story: "A fox sleeps. The keeper reads. Dawn comes." },
);
const media = await builtPackage("media");
const { startSimulator } = await builtPackage("simulator");
const { runPipeline } = await builtPackage("runner");
const tools = await media.locateFfmpeg();
const example = path.join(root, "examples", "narrated");
const overlap = 0.3;
const work = await mkdtemp(path.join(tmpdir(), "reelsmith-bench-p10-"));
const simulator = await startSimulator({ timeScale: 0.02 });

/** One run of the example; the milliseconds from the clips' end to the later final's end. */
async function narratedRun() {
  let clipsEnd;
  const finals = {};
  const result = await runPipeline(path.join(example, "pipeline.yaml"), {
    inputs: { scenes, ...(story ? { story } : {}) },
    runsRoot: path.join(work, "runs"),
    cacheDir: path.join(work, "cache"),
    autoApprove: true,
    baseURL: simulator.url,
    apiKey: simulator.apiKey,
    onEvent: (event) => {
      if (event.type !== "step.end") return;
      if (event.step === "clips") clipsEnd = now();
      if (event.step === "wide" || event.step === "tall") finals[event.step] = now();
    },
  });
  if (result.status !== "succeeded")
    throw new Error(`the narrated example ${result.status}: ${result.error?.message}`);
  if (clipsEnd === undefined || !finals.wide || !finals.tall)
    throw new Error("the run told no end of its clips or of a final");
  return { ms: Math.max(finals.wide, finals.tall) - clipsEnd, runDir: result.runDir };
}

/** The units of a fan-out step as the journal recorded them, in order. */
function unitsOf(journal, step) {
  return journal
    .filter((record) => record.type === "item.end" && record.step === step)
    .sort((a, b) => a.index - b.index)
    .map((record) => record.outputs);
}

/** The one ffmpeg command line that makes both finals from what the run `runDir` had. */
async function baselineArgs(runDir, output) {
  const journal = (await readFile(path.join(runDir, "journal.jsonl"), "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const inRun = (file) => path.resolve(runDir, file);
  const clips = unitsOf(journal, "clips").map((clip) => inRun(clip.file));
  const narration = unitsOf(journal, "narration");
  const first = await media.probe(clips[0], { tools });
  const tall = await media.probe(path.join(runDir, "final-9x16.mp4"), { tools });
  const fps = Math.round(first.fps);
  // Each clip to its narration's length, in whole frames (as `fit` does).
  const seconds = narration.map((voice) => Math.max(1, Math.round(voice.duration * fps)) / fps);
  const starts = seconds.map((_, i) =>
    seconds.slice(0, i).reduce((sum, s) => sum + s - overlap, 0),
  );
  const total = (starts.at(-1) ?? 0) + (seconds.at(-1) ?? 0);
  const inputs = [];
  const graph = [];
  clips.forEach((clip, i) => {
    inputs.push("-an", "-i", clip);
    const frames = Math.round(seconds[i] * fps);
    graph.push(
      `[${i}:v:0]fps=${fps},setsar=1,format=yuv420p,tpad=stop_mode=clone:stop=${frames},trim=end_frame=${frames},setpts=PTS-STARTPTS[c${i}]`,
    );
  });
  // The crossfades: each clip fades in over the film so far (the first held to the end).
  graph.push(`[c0]tpad=stop_mode=clone:stop_duration=${total.toFixed(6)}[f0]`);
  for (let i = 1; i < clips.length; i++) {
    graph.push(
      `[c${i}]format=yuva420p,fade=t=in:st=0:d=${overlap}:alpha=1,setpts=PTS-STARTPTS+${starts[i].toFixed(6)}/TB[in${i}]`,
      `[f${i - 1}][in${i}]overlay=eof_action=pass[f${i}]`,
    );
  }
  const fontsdir = path.dirname(tools.fontFile);
  const ass = (file) => `subtitles=filename=${path.join(runDir, file)}:fontsdir=${fontsdir}`;
  const [w, h] = [tall.width, tall.height];
  graph.push(
    `[f${clips.length - 1}]trim=duration=${total.toFixed(6)},format=yuv420p,split=2[wide][frame]`,
    `[wide]${ass("final-16x9.ass")}[vwide]`,
    `[frame]split=2[back][front]`,
    `[back]scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},gblur=sigma=28[blurred]`,
    `[front]scale=w='2*trunc(min(${w}/iw,${h}/ih)*iw/2)':h='2*trunc(min(${w}/iw,${h}/ih)*ih/2)'[fitted]`,
    `[blurred][fitted]overlay=x=(W-w)/2:y=(H-h)/2,setsar=1,${ass("final-9x16.ass")}[vtall]`,
  );
  // The sound: each narration at its clip's start, the music bed ducked under it, −14 LUFS.
  const norm = "aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo";
  const length = `apad,atrim=duration=${total.toFixed(6)},asetpts=PTS-STARTPTS`;
  narration.forEach((voice, i) => {
    inputs.push("-i", inRun(voice.file));
    const ms = Math.round(starts[i] * 1000);
    graph.push(`[${clips.length + i}:a:0]${norm},adelay=${ms}|${ms},${length}[voice${i}]`);
  });
  const voices = narration.map((_, i) => `[voice${i}]`).join("");
  const sum = (n) =>
    n === 1 ? "anull" : `amix=inputs=${n}:duration=first:dropout_transition=0,volume=${n}`;
  graph.push(`${voices}${sum(narration.length)},asplit=2[voice][key]`);
  inputs.push("-stream_loop", "-1", "-i", path.join(example, "music.m4a"));
  graph.push(
    `[${clips.length + narration.length}:a:0]${norm},volume=0.5,atrim=duration=${total.toFixed(6)},asetpts=PTS-STARTPTS,afade=t=in:st=0:d=1,afade=t=out:st=${(total - 1.5).toFixed(6)}:d=1.5[bed]`,
    "[bed][key]sidechaincompress=threshold=0.02:ratio=10:attack=20:release=300[music]",
    `[voice][music]${sum(2)},loudnorm=I=-14:TP=-1.5:LRA=11,aresample=48000,asplit=2[awide][atall]`,
  );
  const encode = [
    ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p"],
    ...["-c:a", "aac", "-b:a", "128k", "-ar", "48000", "-ac", "2", "-movflags", "+faststart"],
  ];
  return [
    ...["-nostdin", "-y", "-loglevel", "error", ...inputs],
    ...["-filter_complex", graph.join(";")],
    ...["-map", "[vwide]", "-map", "[awide]", ...encode, `${output}-16x9.mp4`],
    ...["-map", "[vtall]", "-map", "[atall]", ...encode, `${output}-9x16.mp4`],
  ];
}

try {
  // The first run pays for the images, narration and clips; the cache serves them after.
  // Its tail is timed too: it is the same work (smoke mode times only it).
  const first = await narratedRun();
  const args = await baselineArgs(first.runDir, path.join(work, "baseline"));
  let lastRun = first.runDir;
  const result = smoke
    ? await timeProcess(tools.ffmpeg.path, args).then((ms) => ({
        ours: first.ms,
        baseline: ms,
        ratio: first.ms / ms,
      }))
    : await alternate(
        rounds,
        async () => {
          const run = await narratedRun();
          // The first run's files stay: the baseline reads its clips.
          if (lastRun !== first.runDir) await rm(lastRun, { recursive: true, force: true });
          lastRun = run.runDir;
          return run.ms;
        },
        () => timeProcess(tools.ffmpeg.path, args),
      );
  // The baseline's finals are what ours are: the same sizes and, to a frame, length.
  const [ours, theirs] = await Promise.all([
    media.probe(path.join(lastRun, "final-9x16.mp4"), { tools }),
    media.probe(path.join(work, "baseline-9x16.mp4"), { tools }),
  ]);
  if (ours.width !== theirs.width || Math.abs(ours.duration - theirs.duration) > 0.1)
    throw new Error(
      `the baseline's tall final (${theirs.width}×${theirs.height}, ${theirs.duration} s) is not ours (${ours.width}×${ours.height}, ${ours.duration} s)`,
    );
  report([
    {
      id: "P10",
      measure: `narrated example's tail (${scenes} scenes, ${ours.duration.toFixed(1)} s): last clip in to both finals out vs one ffmpeg invocation`,
      ours: `${Math.round(result.ours)} ms`,
      baseline: `${Math.round(result.baseline)} ms`,
      ratio: result.ratio,
      goal: 1.3,
    },
  ]);
} finally {
  await simulator.close();
  await rm(work, { recursive: true, force: true });
}

import { stat, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { KnownProbe, MediaInfo } from "@reelsmith/media";
import { executionExtras } from "../../executor/execution-context.js";
import type { StepRunContext } from "../step-kind.js";
import { inputList } from "./ffmpeg-inputs.js";
import type { FfmpegStepSpec } from "./ffmpeg-schema.js";
import { type SoleReader, soleReaderOf } from "./sole-reader.js";
import { assBeside, planWordCaptions, type WordCaptionsPlan } from "./word-captions-step.js";

/** The one step that reads this step's file, when it burns word captions into it. */
export type CaptionsReader = SoleReader;

/** A word-captions step's file made ahead by the pass that made its input. */
interface MadeAhead {
  /** The request it was made for, as JSON. */
  request: string;
  /** The input file as it was written then. */
  video: { file: string; size: number; mtimeMs: number };
  probe: KnownProbe;
  ass: string;
  missing: string[];
}

/** Where a run keeps what its steps made ahead (`RunServices.madeAhead`). */
export type MadeAheadStore = Map<string, unknown>;

/** The key of a captioned file made ahead in a run's store: its output path, absolute. */
const aheadKey = (output: string) => `captions:${output}`;

function isMadeAhead(value: unknown): value is MadeAhead {
  const entry = value as Partial<MadeAhead> | undefined;
  return typeof entry?.request === "string" && typeof entry.ass === "string" && !!entry.video;
}

/**
 * The word-captions step that alone reads the file `output` of the step running in
 * `context`, when the host can tell what it will ask (`requestOf`); else undefined. Such a
 * reader's picture can be made in this step's own pass.
 * @example captionsReaderOf(context, "/run/tall.mp4")?.step // "tall"
 */
export function captionsReaderOf(
  context: StepRunContext,
  output: string,
): CaptionsReader | undefined {
  const reader = soleReaderOf(context, output, "captions");
  return reader?.request.words === undefined ? undefined : reader;
}

/**
 * The reader's word captions laid out on the file this step is about to make (`video`,
 * whose picture will be `width`×`height` and whose length is `source`'s).
 */
export function planReaderCaptions(
  reader: CaptionsReader,
  context: StepRunContext,
  made: {
    video: string;
    videoInfo: MediaInfo;
    probes: (files: string[]) => KnownProbe[] | undefined;
  },
): Promise<WordCaptionsPlan> {
  const { request } = reader;
  const clips =
    request.clips === undefined ? undefined : inputList(request.clips, context, "captions");
  const pipelineDir = executionExtras(context)?.pipelineDir ?? process.cwd();
  return planWordCaptions(request, {
    video: made.video,
    videoInfo: made.videoInfo,
    clips,
    fonts: (request.fonts ?? []).map((font) => resolve(pipelineDir, String(font))),
    probes: made.probes(clips ?? []),
    signal: context.signal,
  });
}

/**
 * Keeps what was made ahead for the reader: its ASS script written beside its file (as the
 * reader writes it), and the file's identity with the input's, in the run's `store` for
 * {@link takeMadeAhead}.
 */
export async function keepMadeAhead(
  store: MadeAheadStore | undefined,
  reader: CaptionsReader,
  made: { video: string; info: MediaInfo; script: string; missing: string[] },
): Promise<KnownProbe> {
  const ass = assBeside(reader.output);
  await writeFile(ass, made.script);
  const [video, output] = await Promise.all([stat(made.video), stat(reader.output)]);
  const probe = {
    file: reader.output,
    size: output.size,
    mtimeMs: output.mtimeMs,
    info: made.info,
  };
  store?.set(aheadKey(reader.output), {
    request: JSON.stringify(reader.request),
    video: { file: made.video, size: video.size, mtimeMs: video.mtimeMs },
    probe,
    ass,
    missing: made.missing,
  });
  return probe;
}

/**
 * The file a word-captions step asks for (`request`, reading `video`, writing `output`),
 * when the pass that made its input made it too for the very same request, and neither file
 * changed since; taken once. Undefined otherwise: the step burns its captions itself.
 * @example const ahead = await takeMadeAhead(store, spec, video, output); // { probe, ass, missing } | undefined
 */
export async function takeMadeAhead(
  store: MadeAheadStore | undefined,
  request: FfmpegStepSpec,
  video: string,
  output: string,
): Promise<Pick<MadeAhead, "probe" | "ass" | "missing"> | undefined> {
  const ahead = store?.get(aheadKey(output));
  if (!isMadeAhead(ahead)) return undefined;
  store?.delete(aheadKey(output));
  if (ahead.video.file !== video || ahead.request !== JSON.stringify(request)) return undefined;
  const same = async (file: string, was: { size: number; mtimeMs: number }) => {
    const now = await stat(file).catch(() => undefined);
    return now !== undefined && now.size === was.size && now.mtimeMs === was.mtimeMs;
  };
  if (!(await same(video, ahead.video)) || !(await same(output, ahead.probe))) return undefined;
  if (!(await stat(ahead.ass).catch(() => undefined))) return undefined;
  return { probe: ahead.probe, ass: ahead.ass, missing: ahead.missing };
}

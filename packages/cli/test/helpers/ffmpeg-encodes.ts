import { readFile } from "node:fs/promises";
import path from "node:path";

/** One ffmpeg process of a run, read back from its command line. */
export interface FfmpegCommand {
  step: string;
  inputs: string[];
  /** The file it made, as it is named once renamed into place. */
  output: string;
  /** It encodes the picture with x264, and not losslessly (`-qp 0`). */
  lossy: boolean;
  /** It encodes the picture at all (not a stream copy, not a measurement). */
  encodes: boolean;
}

/** The words of a command line as `shellWord` wrote them (single quotes, `'\''`). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (char === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (char === "\\") {
      word = (word ?? "") + (line[i + 1] ?? "");
      i++;
    } else if (char === " ") {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? "") + char;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** `dir/.name.1a2b3c4d.tmp.mp4` → `dir/name.mp4`: the temp file media writes beside the output. */
function finalName(file: string): string {
  const match = /^\.(.+)\.[0-9a-f]{8}\.tmp(\.[^.]*)?$/.exec(path.basename(file));
  return match ? path.join(path.dirname(file), `${match[1]}${match[2] ?? ""}`) : file;
}

/** Every ffmpeg command line a run's steps told (debug `log` events of events.ndjson). */
export async function ffmpegCommands(runDir: string): Promise<FfmpegCommand[]> {
  const events = (await readFile(path.join(runDir, "events.ndjson"), "utf8"))
    .split("\n")
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as { type: string; level?: string; step?: string; message?: string },
    );
  return events
    .filter(
      (event) =>
        event.type === "log" && event.level === "debug" && event.message?.startsWith("$ ffmpeg "),
    )
    .map((event) => {
      const args = shellWords((event.message as string).slice("$ ffmpeg ".length));
      const inputs = args.flatMap((arg, index) => (args[index - 1] === "-i" ? [arg] : []));
      const codec = args.findIndex((arg, index) => args[index - 1] === "-c:v" && arg === "libx264");
      const qp = args.findIndex((arg, index) => args[index - 1] === "-qp" && arg === "0");
      return {
        step: event.step ?? "",
        inputs,
        output: finalName(args.at(-1) ?? ""),
        encodes: codec >= 0,
        lossy: codec >= 0 && qp < 0,
      };
    });
}

/**
 * The ffmpeg passes between a file a run did not make with ffmpeg (a generated clip) and
 * `file`, on the path with the most lossy encodes: that path's lossy encodes and all its passes.
 */
export function encodeChain(
  commands: readonly FfmpegCommand[],
  file: string,
): { lossy: number; passes: number; from: string } {
  const maker =
    commands.findLast((command) => command.output === file && command.encodes) ??
    commands.findLast((command) => command.output === file);
  if (!maker) return { lossy: 0, passes: 0, from: file };
  const before = maker.inputs
    .map((input) => encodeChain(commands, input))
    .sort((a, b) => b.lossy - a.lossy || b.passes - a.passes)[0] ?? {
    lossy: 0,
    passes: 0,
    from: file,
  };
  return {
    lossy: before.lossy + (maker.lossy ? 1 : 0),
    passes: before.passes + 1,
    from: before.from,
  };
}

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

/** Options of these command lines that take no value; every other `-option` takes one. */
const flags = new Set(["-nostdin", "-y", "-nostats", "-hide_banner", "-an", "-vn", "-sn", "-dn"]);

/**
 * Every ffmpeg command line a run's steps told (debug `log` events of events.ndjson), one
 * entry per file a command writes (a pass may write two: a reframe and its captioned copy),
 * each with the options given for that output.
 */
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
    .flatMap((event) => {
      const args = shellWords((event.message as string).slice("$ ffmpeg ".length));
      const inputs = args.flatMap((arg, index) => (args[index - 1] === "-i" ? [arg] : []));
      const made: FfmpegCommand[] = [];
      let options: string[] = [];
      for (let i = 0; i < args.length; i++) {
        const arg = args[i] as string;
        if (arg.startsWith("-") && arg !== "-") {
          options.push(arg);
          if (!flags.has(arg)) options.push(args[++i] ?? "");
          continue;
        }
        const codec = options.findIndex((o, at) => options[at - 1] === "-c:v" && o === "libx264");
        const qp = options.findIndex((o, at) => options[at - 1] === "-qp" && o === "0");
        made.push({
          step: event.step ?? "",
          inputs,
          output: finalName(arg),
          encodes: codec >= 0,
          lossy: codec >= 0 && qp < 0,
        });
        options = [];
      }
      return made;
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

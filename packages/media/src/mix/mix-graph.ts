import { audioNormalizeChain } from "../filters/normalize.js";

/** How the music is pushed down while the voice speaks (`sidechaincompress` options). */
export interface DuckSettings {
  /** Voice level (0..1 linear) above which the music is pushed down (default 0.02, −34 dBFS). */
  threshold: number;
  /** Compression ratio (default 10): how hard the music is pushed down. */
  ratio: number;
  /** Milliseconds to push it down once the voice starts (default 20). */
  attack: number;
  /** Milliseconds to bring it back once the voice stops (default 300). */
  release: number;
}

/** What {@link mixGraph} mixes: input indexes of ffmpeg's command line and their settings. */
export interface MixGraphInput {
  /** The film's length in seconds: every bus is padded or cut to it. */
  seconds: number;
  /** Narration inputs and where each starts on the film, in seconds. */
  narration: readonly { input: number; at: number }[];
  music?: {
    input: number;
    volume: number;
    /** Seconds of fade-in at the start of the film (0 for none). */
    fadeIn: number;
    /** Seconds of fade-out before its end (0 for none). */
    fadeOut: number;
    /** Input given with `-stream_loop -1`: it is only cut; otherwise silence pads it. */
    looped: boolean;
  };
  /** The clips' own sound, kept at `volume`. */
  clipAudio?: { input: number; volume: number };
  /** Duck the music under the narration (needs both). */
  duck?: DuckSettings;
  /** Filters put after the mix (e.g. `loudnorm=…,aresample=48000`). */
  finish?: readonly string[];
}

/** Default {@link DuckSettings}: about 15 dB down under a voice at −12 dBFS. */
export const defaultDuck: DuckSettings = { threshold: 0.02, ratio: 10, attack: 20, release: 300 };

const seconds6 = (value: number) => value.toFixed(6);

/**
 * The `-filter_complex` graph of a film's sound, its result labelled `[mix]`: each
 * narration delayed to its start (`adelay`) and padded to the film's length, the narrations
 * summed into a voice bus; the music looped or padded, cut, faded in and out, and ducked by
 * `sidechaincompress` keyed on the voice bus; the clips' sound at a level; all summed at
 * unity gain (`amix` divides by its inputs, `volume` multiplies back), then `finish`.
 *
 * @example
 * mixGraph({ seconds: 8, narration: [{ input: 1, at: 0.5 }], music: { input: 2, volume: 0.5, fadeIn: 1, fadeOut: 2, looped: true }, duck: defaultDuck });
 */
export function mixGraph(input: MixGraphInput): string {
  const length = seconds6(input.seconds);
  const fitted = `apad,atrim=duration=${length},asetpts=PTS-STARTPTS`;
  const graph: string[] = [];
  const bus: string[] = [];
  const voices = input.narration.map((narration, index) => {
    const ms = Math.round(narration.at * 1000);
    graph.push(
      `[${narration.input}:a:0]${audioNormalizeChain},adelay=${ms}|${ms},${fitted}[voice${index}]`,
    );
    return `[voice${index}]`;
  });
  const ducking = input.duck !== undefined && input.music !== undefined && voices.length > 0;
  if (voices.length > 0) {
    const sum = voices.length === 1 ? "anull" : `${unitySum(voices.length)}`;
    graph.push(`${voices.join("")}${sum}${ducking ? ",asplit=2[voice][key]" : "[voice]"}`);
    bus.push("[voice]");
  }
  if (input.music) {
    const music = input.music;
    const chain = [audioNormalizeChain, `volume=${music.volume}`];
    chain.push(music.looped ? `atrim=duration=${length},asetpts=PTS-STARTPTS` : fitted);
    if (music.fadeIn > 0) chain.push(`afade=t=in:st=0:d=${music.fadeIn}`);
    if (music.fadeOut > 0) {
      const start = Math.max(0, input.seconds - music.fadeOut);
      chain.push(`afade=t=out:st=${seconds6(start)}:d=${music.fadeOut}`);
    }
    if (ducking && input.duck) {
      const { threshold, ratio, attack, release } = input.duck;
      graph.push(`[${music.input}:a:0]${chain.join(",")}[bed]`);
      graph.push(
        `[bed][key]sidechaincompress=threshold=${threshold}:ratio=${ratio}:attack=${attack}:release=${release}[music]`,
      );
    } else {
      graph.push(`[${music.input}:a:0]${chain.join(",")}[music]`);
    }
    bus.push("[music]");
  }
  if (input.clipAudio) {
    graph.push(
      `[${input.clipAudio.input}:a:0]${audioNormalizeChain},volume=${input.clipAudio.volume},${fitted}[clips]`,
    );
    bus.push("[clips]");
  }
  if (bus.length === 0) throw new TypeError("Expected narration, music or the clips' sound to mix");
  const finish = [bus.length === 1 ? "anull" : unitySum(bus.length), ...(input.finish ?? [])];
  graph.push(`${bus.join("")}${finish.join(",")}[mix]`);
  return graph.join(";");
}

/** `amix` of `count` inputs at unity gain, ending with the first (all are the same length). */
function unitySum(count: number): string {
  return `amix=inputs=${count}:duration=first:dropout_transition=0,volume=${count}`;
}

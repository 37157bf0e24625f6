import type { TranscriptWord } from "../../audio/audio-types.js";

/** ElevenLabs' per-character alignment of the spoken text. */
export interface CharacterAlignment {
  characters: readonly string[];
  character_start_times_seconds: readonly number[];
  character_end_times_seconds: readonly number[];
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * The words of a character alignment, each as the text writes it (punctuation kept), from
 * the start of its first character to the end of its last. White space separates words; a
 * token of punctuation only (a dash between spaces) joins the word before it.
 *
 * @example
 * ```ts
 * wordsFromAlignment({ characters: [..."Hi, you."], character_start_times_seconds: [0, .1, .2, .3, .4, .5, .6, .7], character_end_times_seconds: [.1, .2, .3, .4, .5, .6, .7, .8] });
 * // [{ word: "Hi,", start: 0, end: 0.3 }, { word: "you.", start: 0.4, end: 0.8 }]
 * ```
 */
export function wordsFromAlignment(alignment: CharacterAlignment): TranscriptWord[] {
  const words: TranscriptWord[] = [];
  let text = "";
  let start = 0;
  let end = 0;
  const close = () => {
    if (text === "") return;
    const last = words.at(-1);
    if (!/[\p{L}\p{N}]/u.test(text) && last) {
      last.word += ` ${text}`;
      last.end = Math.max(last.end, round(end));
    } else {
      words.push({ word: text, start: round(start), end: round(end) });
    }
    text = "";
  };
  alignment.characters.forEach((character, index) => {
    if (/^\s*$/u.test(character)) {
      close();
      return;
    }
    const from = alignment.character_start_times_seconds[index] ?? end;
    const to = alignment.character_end_times_seconds[index] ?? from;
    if (text === "") start = from;
    text += character;
    end = Math.max(end, to);
  });
  close();
  return words;
}

import { splitClauses } from "./split-clauses.js";
import { nounPhrases, quoted, sceneTitle, titleCase } from "./story-text.js";
import { keywordsOf, splitSentences, stopWords } from "./text-analysis.js";

/** One item of an array the model fills: the text it is about, what it says, its title. */
export interface Beat {
  /** The story text the item stands for (numbers, enums and nested arrays come from it). */
  base: string;
  /** What the item says: `base`, or `base` seen through a shot and a moment of its own. */
  text: string;
  /** A title no other item of the array has. */
  title: string;
}

/** A way to look at a clause: a lead before it and a label for the title. */
interface Lead {
  lead: (detail: string) => string;
  label: string;
}

const the = (detail: string) => (detail ? ` the ${detail}` : "");

/** Camera shots, for arrays of scenes, shots, clips, frames or panels. */
const shots: readonly Lead[] = [
  { lead: (detail) => `Wide shot of${the(detail)}`, label: "Wide Shot" },
  { lead: (detail) => `Close-up on${the(detail)}`, label: "Close-Up" },
  { lead: (detail) => `The camera follows${the(detail)}`, label: "Following" },
  { lead: (detail) => `Low angle, looking up at${the(detail)}`, label: "Low Angle" },
  { lead: (detail) => `Tracking shot beside${the(detail)}`, label: "Tracking Shot" },
  { lead: (detail) => `Aerial view over${the(detail)}`, label: "Aerial View" },
  { lead: (detail) => `Over the shoulder, towards${the(detail)}`, label: "Over the Shoulder" },
  { lead: (detail) => `Medium shot framing${the(detail)}`, label: "Medium Shot" },
  { lead: (detail) => `Slow pan across${the(detail)}`, label: "Slow Pan" },
  { lead: (detail) => `Extreme close-up of${the(detail)}`, label: "Extreme Close-Up" },
  { lead: (detail) => `Handheld, moving with${the(detail)}`, label: "Handheld" },
  { lead: (detail) => `Still frame, centred on${the(detail)}`, label: "Still Frame" },
];

/** Plain angles, for any other array (points, items, steps). */
const angles: readonly Lead[] = [
  { lead: (detail) => `An overview of${the(detail)}`, label: "Overview" },
  { lead: (detail) => `A closer look at${the(detail)}`, label: "Closer Look" },
  { lead: (detail) => `More about${the(detail)}`, label: "More" },
  { lead: (detail) => `Focusing on${the(detail)}`, label: "Focus" },
  { lead: (detail) => `Another view of${the(detail)}`, label: "Another View" },
  { lead: (detail) => `Back to${the(detail)}`, label: "Back" },
];

const middles = ["Moments later", "Then", "Meanwhile", "Later"];

const prepositions = new Set(
  "at in on by through across under over into past near beneath above along toward towards".split(
    " ",
  ),
);

/**
 * What an item can dwell on: the clause's noun phrases ("frozen river"), with the nouns after
 * its prepositions ("at night" → "night") when it has fewer than two, else its content words;
 * never empty.
 *
 * @example
 * detailsOf("A fox crosses a frozen river at night."); // ["fox", "frozen river"]
 * detailsOf("It hides from the hunter at night."); // ["hunter", "night"]
 */
export function detailsOf(clause: string): string[] {
  const words = clause.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  const afterPrepositions = words
    .filter((_, index) => prepositions.has(words[index - 1]?.toLowerCase() ?? ""))
    .filter((word) => !stopWords.has(word.toLowerCase()));
  const phrases = nounPhrases(clause);
  // "the fox" and "the frozen river" make better shots than "the night": the nouns after
  // prepositions only when the clause has fewer than two phrases of its own.
  const found = phrases.length >= 2 ? phrases : [...phrases, ...afterPrepositions];
  const chosen = found.length > 0 ? found : keywordsOf(clause).slice(0, 3);
  const unique = [...new Map(chosen.map((detail) => [detail.toLowerCase(), detail])).values()];
  return unique.length > 0 ? unique : [""];
}

/**
 * Cut sentences into `count` contiguous groups (reusing sentences when there are fewer).
 *
 * @example
 * groupSentences(["a", "b", "c", "d", "e"], 2); // ["a b", "c d e"]
 */
export function groupSentences(sentences: string[], count: number): string[] {
  if (count <= 0) return [];
  if (sentences.length <= count) {
    return Array.from({ length: count }, (_, index) => sentences[index % sentences.length] ?? "");
  }
  const groups: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = Math.floor((index * sentences.length) / count);
    const end = Math.floor(((index + 1) * sentences.length) / count);
    groups.push(sentences.slice(start, end).join(" "));
  }
  return groups;
}

/**
 * Which leads suit an array: camera shots when its name, its description or the request
 * speaks of scenes, shots, clips, frames, panels or film; plain angles otherwise.
 *
 * @example
 * leadsFor("scenes Split the story above into 6 scenes."); // "shots"
 */
export function leadsFor(text: string): ComposeBeatsOptions["kind"] {
  return /\b(?:scenes?|shots?|storyboards?|cameras?|clips?|frames?|panels?|films?|videos?|movies?|sequences?)\b/i.test(
    text,
  )
    ? "shots"
    : "angles";
}

/** Options of {@link composeBeats}. */
export interface ComposeBeatsOptions {
  /** The sentences the array is made from, in order. */
  sentences: string[];
  /** How many items the array has. */
  count: number;
  /** Camera shots (scenes, clips) or plain angles (any other list). */
  kind: "shots" | "angles";
  /** Turns the order of the shots (the reply's seed). */
  seed?: number;
}

/**
 * The items of an array made from a text: its sentences in contiguous groups when there are
 * enough; else its clauses; else each clause seen `k` times, each time through another shot
 * ("Wide shot", "Close-up on the frozen river", "The camera follows the fox", …), another
 * detail of its own words and another moment (first, "Moments later", …, "In the end" for the
 * story's last). Every
 * item's text and title differ from every other's, and every text holds its clause whole;
 * the same options give the same beats.
 *
 * @example
 * composeBeats({ sentences: ["A fox crosses a frozen river at night."], count: 3, kind: "shots" }).map((beat) => beat.text);
 * // ["Wide shot: A fox crosses a frozen river at night.",
 * //  "Moments later, close-up on the frozen river: A fox crosses a frozen river at night.",
 * //  "In the end, the camera follows the fox: A fox crosses a frozen river at night."]
 */
export function composeBeats(options: ComposeBeatsOptions): Beat[] {
  const { sentences, count } = options;
  if (count <= 0) return [];
  const clauses = sentences.length >= count ? sentences : sentences.flatMap(splitClauses);
  const units = clauses.length > 0 ? clauses : [""];
  const beats =
    units.length >= count
      ? groupSentences(units, count).map((group) => ({
          base: group,
          text: group,
          title: quoted(group) ?? sceneTitle(splitSentences(group)[0] ?? group),
        }))
      : vary(units, options);
  return distinct(beats);
}

function vary(units: string[], options: ComposeBeatsOptions): Beat[] {
  const leads = options.kind === "shots" ? shots : angles;
  const turn = Math.abs(Math.trunc(options.seed ?? 0)) % leads.length;
  const beats: Beat[] = [];
  let first = 0;
  for (const [unitIndex, unit] of units.entries()) {
    const next = Math.floor(((unitIndex + 1) * options.count) / units.length);
    const seen = next - first;
    const details = detailsOf(unit);
    for (let index = 0; index < seen; index += 1) {
      // (lead, detail) pairs never repeat within a clause before every pair is used: the
      // detail moves on by one each time the leads come round again.
      const round = Math.floor(index / leads.length);
      const step = index % leads.length;
      const lead = leads[(step + turn) % leads.length] as Lead;
      const detail = details[(step + round) % details.length] ?? "";
      const take = Math.floor(index / (leads.length * details.length));
      const moment =
        index === 0
          ? ""
          : index === seen - 1 && seen > 2 && unitIndex === units.length - 1
            ? "In the end"
            : (middles[(index - 1) % middles.length] as string);
      const said = lead.lead(detail);
      const opening = moment ? `${moment}, ${said.charAt(0).toLowerCase()}${said.slice(1)}` : said;
      const again = take > 0 ? ` (take ${take + 1})` : "";
      const named = detail ? titleCase(`the ${detail}`) : sceneTitle(unit);
      beats.push({
        base: unit,
        text: `${opening}: ${unit}${again}`,
        title: `${named}, ${lead.label}${take > 0 ? ` (Take ${take + 1})` : ""}`,
      });
    }
    first = next;
  }
  return beats;
}

/** Number the second and later copies of a text or title ("… (2)") so that none repeats. */
function distinct(beats: Beat[]): Beat[] {
  const texts = new Map<string, number>();
  const titles = new Map<string, number>();
  const again = (seen: Map<string, number>, value: string) => {
    const times = (seen.get(value) ?? 0) + 1;
    seen.set(value, times);
    if (times === 1) return value;
    let candidate = `${value} (${times})`;
    while (seen.has(candidate)) candidate = `${candidate}′`;
    seen.set(candidate, 1);
    return candidate;
  };
  return beats.map((beat) => ({
    base: beat.base,
    text: again(texts, beat.text),
    title: again(titles, beat.title),
  }));
}

import { ownUnitOf } from "../../plan/price-units.js";
import type { PlanContext, PlannedUnit } from "../step-kind.js";
import {
  speechCredits,
  speechModelsOf,
  transcriptionCredits,
  transcriptionModelsOf,
  wordsModelOf,
} from "./speech-models.js";

/**
 * Characters a voice speaks per second at speed 1, for pricing a transcription before the
 * audio exists: about 15 (150 words a minute of 6 characters with their space). Only the
 * estimate uses it; the run pays what the service reports (the audio's real length).
 */
export const CHARACTERS_PER_SECOND = 15;

/**
 * How fast voices speak, at speed 1, in characters per second: from a slow, careful
 * narration (8) to a brisk read (20). A narration's duration is expected between its length
 * over the fastest and over the slowest, and the steps that read it are priced between both.
 */
export const CHARACTERS_PER_SECOND_RANGE = Object.freeze({ slowest: 8, fastest: 20 });

/**
 * One speech request per unit, and a transcription when the word timings come from one: not
 * when the speech model's answer times the words itself (its provider's alignment, which the
 * run uses before it would transcribe).
 * Priced when the input is known before the run: the speech model's price per 1,000
 * characters times the input's length, plus the transcription model's price per minute of
 * the audio's expected length ({@link CHARACTERS_PER_SECOND}, over `speed`), each also as
 * its model's part (`parts`), in the unit its model is priced in.
 * @example planSpeech({ model: "reel-voice-1", input: "Hello there." }, context) // { requests: { speech: 1, transcriptions: 1 }, credits: 2 }
 */
export function planSpeech(known: Record<string, unknown>, context: PlanContext): PlannedUnit {
  const voice =
    typeof known.model === "string"
      ? speechModelsOf(context.catalogs)?.find((model) => model.id === known.model)
      : undefined;
  const wordsModel = voice?.wordTimings ? undefined : wordsModelOf(known.words, context.catalogs);
  const planned: PlannedUnit = {
    requests: { speech: 1, ...(wordsModel ? { transcriptions: 1 } : {}) },
  };
  // The models it is priced by, named even before their prices are known (each in its unit).
  if (wordsModel && typeof known.model === "string")
    planned.parts = [{ model: known.model }, { model: wordsModel }];
  if (typeof known.input !== "string") return planned;
  const speed = typeof known.speed === "number" && known.speed > 0 ? known.speed : 1;
  const characters = known.input.length;
  const duration = {
    atLeast: characters / CHARACTERS_PER_SECOND_RANGE.fastest / speed,
    atMost: characters / CHARACTERS_PER_SECOND_RANGE.slowest / speed,
  };
  planned.expected = { duration };
  if (typeof known.model !== "string") return planned;
  // Each priced in its own unit when that has no rate to credits: exact, never a whole unit.
  const spoken = speechCredits(voice, characters, ownUnitOf(context.catalogs, known.model));
  if (spoken === undefined) return planned;
  if (!wordsModel) return { ...planned, credits: spoken };
  const timer = transcriptionModelsOf(context.catalogs)?.find((model) => model.id === wordsModel);
  const unit = ownUnitOf(context.catalogs, wordsModel);
  const heard = transcriptionCredits(timer, characters / CHARACTERS_PER_SECOND / speed, unit);
  const least = transcriptionCredits(timer, duration.atLeast, unit);
  const most = transcriptionCredits(timer, duration.atMost, unit);
  if (heard === undefined || least === undefined || most === undefined) return planned;
  return {
    ...planned,
    credits: spoken + heard,
    creditsRange: { atLeast: spoken + least, atMost: spoken + most },
    // The voice and the transcription, each in its model's unit (a voice in usd, words in credits).
    parts: [
      { model: known.model, credits: spoken },
      { model: wordsModel, credits: heard, creditsRange: { atLeast: least, atMost: most } },
    ],
  };
}

import type { SimulatorContext } from "../../server/context.js";

/** One ElevenLabs text-to-speech model as the simulator serves it. */
export interface ElevenlabsModel {
  model_id: string;
  name: string;
  /** Credits per character of the text (ElevenLabs' flash and turbo models cost half). */
  creditsPerCharacter: number;
  maxCharacters: number;
}

/** ElevenLabs' text-to-speech models (ids, names, credits per character, longest text). */
export const elevenlabsModels: readonly ElevenlabsModel[] = Object.freeze([
  {
    model_id: "eleven_multilingual_v2",
    name: "Eleven Multilingual v2",
    creditsPerCharacter: 1,
    maxCharacters: 10_000,
  },
  {
    model_id: "eleven_turbo_v2_5",
    name: "Eleven Turbo v2.5",
    creditsPerCharacter: 0.5,
    maxCharacters: 40_000,
  },
  {
    model_id: "eleven_flash_v2_5",
    name: "Eleven Flash v2.5",
    creditsPerCharacter: 0.5,
    maxCharacters: 40_000,
  },
  { model_id: "eleven_v3", name: "Eleven v3", creditsPerCharacter: 1, maxCharacters: 5_000 },
]);

/** Some of ElevenLabs' premade voices (id and name), each spoken here with a Flite voice. */
export const premadeVoices: readonly { voice_id: string; name: string; flite: string }[] =
  Object.freeze([
    { voice_id: "21m00Tcm4TlvDq8ikWAM", name: "Rachel", flite: "slt" },
    { voice_id: "JBFqnCBsd6RMkjVDRZzb", name: "George", flite: "rms" },
    { voice_id: "pNInz6obpgDQGcFmaJgB", name: "Adam", flite: "awb" },
    { voice_id: "EXAVITQu4vr4xnJW0bSQ", name: "Sarah", flite: "slt" },
    { voice_id: "onwK4e9ZLuTAKqWW03F9", name: "Daniel", flite: "kal16" },
  ]);

const fliteVoices = ["slt", "rms", "awb", "kal16"];

/**
 * The models served: ElevenLabs' own, a profile's speech model of the same id (or any other
 * id it lists) taking its price per 1,000 characters.
 */
export function servedModels(simulator: SimulatorContext): ElevenlabsModel[] {
  const listed = new Map(simulator.catalog.speechModels.map((model) => [model.id, model]));
  const own = elevenlabsModels.map((model) => {
    const profile = listed.get(model.model_id);
    return profile
      ? { ...model, creditsPerCharacter: profile.creditsPer1000Characters / 1000 }
      : model;
  });
  return own;
}

/** The voices served: the premade ones, then every voice a catalog's speech model lists. */
export function servedVoices(
  simulator: SimulatorContext,
): { voice_id: string; name: string; flite: string }[] {
  const voices = [...premadeVoices];
  for (const model of simulator.catalog.speechModels) {
    for (const voice of model.voices) {
      if (voices.some((known) => known.voice_id === voice)) continue;
      voices.push({
        voice_id: voice,
        name: voice,
        flite: fliteVoices[voices.length % fliteVoices.length] ?? "slt",
      });
    }
  }
  return voices;
}

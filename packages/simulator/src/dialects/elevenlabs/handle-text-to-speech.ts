import { decoderDelay, encodeAudio } from "../../audio/encode-audio.js";
import { sentencesOf } from "../../audio/spoken-registry.js";
import { type SpokenWord, spokenWords, synthesizeSpeech } from "../../audio/synthesize-speech.js";
import { HttpError } from "../../errors/http-error.js";
import type { RouteHandler } from "../../server/context.js";
import { servedModels, servedVoices } from "./elevenlabs-catalog.js";

/** The output formats answered (MP3 at 44.1 kHz; the simulator encodes one bit rate). */
const outputFormats = ["mp3_44100_128", "mp3_44100_64", "mp3_44100_96", "mp3_44100_192"];

/** ElevenLabs' per-character alignment. */
export interface Alignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * Every character of `text` timed from its spoken words: a word's characters share its span
 * evenly; the characters between two words (spaces, a lone dash) share the silence between.
 */
export function alignText(text: string, words: readonly SpokenWord[], duration: number): Alignment {
  const alignment: Alignment = {
    characters: [],
    character_start_times_seconds: [],
    character_end_times_seconds: [],
  };
  const spread = (characters: string, from: number, to: number) => {
    const list = [...characters];
    const step = list.length > 0 ? (to - from) / list.length : 0;
    list.forEach((character, index) => {
      alignment.characters.push(character);
      alignment.character_start_times_seconds.push(round(from + index * step));
      alignment.character_end_times_seconds.push(round(from + (index + 1) * step));
    });
  };
  let at = 0;
  let heard = 0;
  for (const word of words) {
    const found = text.indexOf(word.word, at);
    if (found < 0) continue;
    spread(text.slice(at, found), heard, word.start);
    spread(word.word, word.start, word.end);
    at = found + word.word.length;
    heard = word.end;
  }
  spread(text.slice(at), heard, Math.max(heard, duration));
  return alignment;
}

function unprocessable(message: string, status = "invalid_request"): HttpError {
  return new HttpError(422, message, { code: status });
}

/**
 * `POST /v1/text-to-speech/{voice_id}/with-timestamps?output_format=…` (JSON: text, model_id,
 * voice_settings, seed): real speech from Flite as MP3, base64, with each character's start
 * and end as the decoder plays the file (`alignment`, and the same as `normalized_alignment`).
 * Charged per character of the text (half a credit on flash and turbo), rounded up.
 */
export const handleTextToSpeech: RouteHandler = async (context, simulator) => {
  const body = await context.readJson();
  const query = new URL(context.request.url ?? "/", "http://localhost").searchParams;
  const format = query.get("output_format") ?? "mp3_44100_128";
  if (!outputFormats.includes(format))
    throw unprocessable(
      `output_format ${JSON.stringify(format)} is not served here; use one of ${outputFormats.join(", ")}.`,
    );
  const text = body.text;
  if (typeof text !== "string" || spokenWords(text).length === 0)
    throw unprocessable("text must be a string with at least one word.");
  const modelId = body.model_id ?? "eleven_multilingual_v2";
  const model = servedModels(simulator).find((entry) => entry.model_id === modelId);
  if (!model)
    throw new HttpError(400, `A model with model ID ${String(modelId)} does not exist.`, {
      code: "model_not_found",
    });
  if (text.length > model.maxCharacters)
    throw new HttpError(
      400,
      `This request's text has ${text.length} characters and exceeds the character limit of ${model.maxCharacters} characters for ${model.model_id}.`,
      { code: "max_character_limit_exceeded" },
    );
  const voiceId = context.params.voice_id ?? "";
  const voice = servedVoices(simulator).find((entry) => entry.voice_id === voiceId);
  if (!voice)
    throw new HttpError(404, `A voice with the voice_id ${voiceId} was not found.`, {
      code: "voice_not_found",
    });
  const settings = (body.voice_settings ?? {}) as Record<string, unknown>;
  const speed = settings.speed ?? 1;
  if (typeof speed !== "number" || !(speed >= 0.7 && speed <= 1.2))
    throw unprocessable("voice_settings.speed must be a number from 0.7 to 1.2.");

  const spoken = await simulator.renders(() =>
    synthesizeSpeech({ text, voice: voice.flite, speed, signal: context.signal }),
  );
  const bytes = encodeAudio(spoken.pcm, "mp3");
  // Timings as a decoder plays the file: an MP3 starts with its encoder's delay.
  const delay = decoderDelay("mp3", spoken.pcm.sampleRate);
  const words = spoken.words.map((word) => ({
    word: word.word,
    start: word.start + delay,
    end: word.end + delay,
  }));
  const alignment = alignText(text, words, spoken.duration + delay);
  // Remembered, so a speech-to-text of these very bytes gives the words back with their times.
  simulator.spoken.remember(bytes, {
    text: text.trim(),
    words,
    segments: sentencesOf(text, words),
    duration: round(spoken.duration + delay),
    model: model.model_id,
    voice: voiceId,
  });
  const credits = Math.ceil(model.creditsPerCharacter * text.length);
  simulator.stats.speechMade(model.model_id, text.length, spoken.duration, credits);
  await context.send(200, {
    audio_base64: bytes.toString("base64"),
    alignment,
    normalized_alignment: alignment,
  });
};

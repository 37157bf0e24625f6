import { chargeInUnit } from "@reelsmith/core/catalog";
import { HttpError } from "../errors/http-error.js";
import { fingerprint } from "../server/answer-store.js";
import type { RouteHandler } from "../server/context.js";
import { idempotencyKeyOf } from "../server/read-form.js";
import { sendStored } from "../server/send-stored.js";
import { audioContentTypes, decoderDelay, encodeAudio } from "./encode-audio.js";
import { sentencesOf } from "./spoken-registry.js";
import { spokenWords, synthesizeSpeech } from "./synthesize-speech.js";

const maxInputCharacters = 4096;

/**
 * The simulator's voice names and OpenAI's, and the Flite voice each one speaks with (slt a
 * woman's voice, rms, awb and kal16 men's; OpenAI's names by the voice they are known for).
 */
const fliteVoices: Readonly<Record<string, string>> = Object.freeze({
  ava: "slt",
  rowan: "rms",
  angus: "awb",
  kal: "kal16",
  alloy: "slt",
  ash: "rms",
  ballad: "awb",
  coral: "slt",
  echo: "rms",
  fable: "awb",
  nova: "slt",
  onyx: "kal16",
  sage: "slt",
  shimmer: "slt",
  verse: "kal16",
});
const fliteVoiceList = ["slt", "rms", "awb", "kal16"];

/**
 * The Flite voice of a voice name: the simulator's and OpenAI's by the table above; any other
 * name a profile gives by its place in the model's list.
 */
function fliteVoiceOf(voice: string, voices: readonly string[]): string {
  return (
    (Object.hasOwn(fliteVoices, voice) ? fliteVoices[voice] : undefined) ??
    fliteVoiceList[Math.max(0, voices.indexOf(voice)) % fliteVoiceList.length] ??
    "slt"
  );
}

function bad(message: string, param: string, code = "invalid_value"): HttpError {
  return new HttpError(400, message, { param, code });
}

/**
 * `POST /v1/audio/speech` (JSON: model, input, voice, response_format, speed, instructions):
 * real speech from Flite, one word after another, as `wav`, `mp3` or `pcm` bytes. The
 * simulator remembers each word's start and end, and recognises these exact bytes when they
 * are sent to `/v1/audio/transcriptions`. Charged per 1,000 characters (rounded up).
 */
export const handleSpeech: RouteHandler = async (context, simulator) => {
  const body = await context.readJson();
  const models = simulator.catalog.speechModels;
  const model = models.find((entry) => entry.id === body.model);
  if (!model) {
    throw new HttpError(
      400,
      `The model '${String(body.model)}' does not exist or is not a speech model; use one of ${models.map((entry) => entry.id).join(", ") || "(none)"}.`,
      { param: "model", code: "model_not_found" },
    );
  }
  const input = body.input;
  if (typeof input !== "string" || spokenWords(input).length === 0)
    throw bad("input must be a string with at least one word.", "input", "missing_input");
  if (input.length > maxInputCharacters)
    throw bad(`input is longer than ${maxInputCharacters} characters; split it.`, "input");
  const voice = body.voice;
  if (typeof voice !== "string" || !model.voices.includes(voice))
    throw bad(
      `${model.id} has no voice ${JSON.stringify(voice)}; use one of ${model.voices.join(", ")}.`,
      "voice",
    );
  const format = body.response_format ?? model.formats[0] ?? "mp3";
  if (typeof format !== "string" || !model.formats.includes(format)) {
    throw bad(
      `${model.id} cannot answer in ${JSON.stringify(format)} here; use one of ${model.formats.join(", ")}.`,
      "response_format",
    );
  }
  const speed = body.speed === undefined || body.speed === null ? 1 : body.speed;
  if (typeof speed !== "number" || !(speed >= 0.25 && speed <= 4))
    throw bad(`speed must be a number from 0.25 to 4; got ${JSON.stringify(body.speed)}.`, "speed");
  if (body.instructions !== undefined && typeof body.instructions !== "string")
    throw bad("instructions must be a string.", "instructions");
  const request = {
    model: model.id,
    input,
    voice,
    format,
    speed,
    instructions: body.instructions ?? null,
  };
  const { answer, replayed } = await simulator.answers.answer(
    idempotencyKeyOf(context, simulator),
    fingerprint("audio.speech", request),
    async () => {
      const spoken = await simulator.renders(() =>
        synthesizeSpeech({
          text: input,
          voice: fliteVoiceOf(voice, model.voices),
          speed,
          signal: context.signal,
        }),
      );
      const bytes = encodeAudio(spoken.pcm, format);
      // Timings as a decoder plays the file: an MP3 starts with its encoder's delay.
      const delay = decoderDelay(format, spoken.pcm.sampleRate);
      const shift = (seconds: number) => Math.round((seconds + delay) * 1000) / 1000;
      const words = spoken.words.map((word) => ({
        ...word,
        start: shift(word.start),
        end: shift(word.end),
      }));
      simulator.spoken.remember(bytes, {
        text: input.trim(),
        words,
        segments: sentencesOf(input, words),
        duration: shift(spoken.duration),
        model: model.id,
        voice,
      });
      const credits = chargeInUnit(
        (model.creditsPer1000Characters * input.length) / 1000,
        model.unit,
      );
      simulator.stats.speechMade(model.id, input.length, spoken.duration, credits);
      return {
        contentType: audioContentTypes[format] ?? "application/octet-stream",
        body: bytes,
        headers: {
          "x-audio-duration": String(spoken.duration),
          ...(format === "pcm" ? { "x-sample-rate": String(spoken.pcm.sampleRate) } : {}),
        },
      };
    },
  );
  await sendStored(context, answer, replayed);
};

import { randomBytes } from "node:crypto";
import { chargeInUnit } from "@reelsmith/core/catalog";
import { decoderDelay, encodeAudio } from "../../audio/encode-audio.js";
import { sentencesOf } from "../../audio/spoken-registry.js";
import { spokenWords, synthesizeSpeech } from "../../audio/synthesize-speech.js";
import { HttpError } from "../../errors/http-error.js";
import type { RequestContext, RouteHandler, SimulatorContext } from "../../server/context.js";
import { sendStored } from "../../server/send-stored.js";

/** One fal text-to-speech endpoint as the simulator serves it. */
interface FalSpeechEndpoint {
  /** The input field its text is read from. */
  textField: "prompt" | "text";
  /** Its voices, each spoken here with a Flite voice; the first is its default. */
  voices: Readonly<Record<string, string>>;
  /** fal's price per 1,000 characters, unless the profile lists the endpoint with its own. */
  creditsPer1000Characters: number;
}

/** fal's speech endpoints served: Kokoro's `{ prompt, voice, speed }`, ElevenLabs' `{ text, voice, speed }`. */
export const falSpeechEndpoints: Readonly<Record<string, FalSpeechEndpoint>> = Object.freeze({
  "fal-ai/kokoro/american-english": {
    textField: "prompt",
    voices: { af_heart: "slt", af_bella: "slt", af_nova: "slt", am_adam: "rms", am_michael: "awb" },
    creditsPer1000Characters: 20,
  },
  "fal-ai/elevenlabs/tts/multilingual-v2": {
    textField: "text",
    voices: { Rachel: "slt", Aria: "slt", George: "rms", Adam: "awb", Daniel: "kal16" },
    creditsPer1000Characters: 100,
  },
});

/** A speech request on fal's queue, spoken at once: its audio is on the simulator's "CDN". */
export interface FalSpeechRequest {
  id: string;
  endpoint: string;
  audioId: string;
  size: number;
}

const requests = new WeakMap<SimulatorContext, Map<string, FalSpeechRequest>>();
const audioFiles = new WeakMap<SimulatorContext, Map<string, Buffer>>();

function mapOf<T>(store: WeakMap<SimulatorContext, Map<string, T>>, simulator: SimulatorContext) {
  let made = store.get(simulator);
  if (!made) {
    made = new Map();
    store.set(simulator, made);
  }
  return made;
}

/** The speech requests made on this simulator, by request id. */
export function falSpeechRequests(simulator: SimulatorContext): Map<string, FalSpeechRequest> {
  return mapOf(requests, simulator);
}

function refused(message: string, field: string): HttpError {
  return new HttpError(422, message, { param: field, code: "value_error" });
}

/** Whether the simulator serves `endpoint` as a fal speech endpoint. */
export function isFalSpeechEndpoint(endpoint: string): boolean {
  return Object.hasOwn(falSpeechEndpoints, endpoint);
}

/**
 * `POST /{endpoint}` for a fal speech endpoint: real speech from Flite as MP3, made at once and
 * charged per character of the text (the profile's price per 1,000 when it lists the
 * endpoint); the request is `COMPLETED` from its first status. No idempotency key.
 */
export async function submitFalSpeech(
  context: RequestContext,
  simulator: SimulatorContext,
  endpoint: string,
  input: Record<string, unknown>,
): Promise<FalSpeechRequest> {
  const served = falSpeechEndpoints[endpoint];
  if (!served) throw new HttpError(404, `Application '${endpoint}' not found.`);
  const text = input[served.textField];
  if (typeof text !== "string" || spokenWords(text).length === 0)
    throw refused(`${served.textField} must be a string with at least one word.`, served.textField);
  const voiceName = input.voice ?? Object.keys(served.voices)[0];
  const flite = typeof voiceName === "string" ? served.voices[voiceName] : undefined;
  if (!flite)
    throw refused(
      `voice must be one of ${Object.keys(served.voices).join(", ")}; got ${JSON.stringify(voiceName)}.`,
      "voice",
    );
  const speed = input.speed ?? 1;
  if (typeof speed !== "number" || !(speed >= 0.1 && speed <= 5))
    throw refused("speed must be a number from 0.1 to 5.", "speed");
  const spoken = await simulator.renders(() =>
    synthesizeSpeech({ text, voice: flite, speed, signal: context.signal }),
  );
  const bytes = encodeAudio(spoken.pcm, "mp3");
  // Remembered with the times a decoder plays them at (an MP3 starts with its encoder's delay).
  const delay = decoderDelay("mp3", spoken.pcm.sampleRate);
  const words = spoken.words.map((word) => ({
    word: word.word,
    start: word.start + delay,
    end: word.end + delay,
  }));
  simulator.spoken.remember(bytes, {
    text: text.trim(),
    words,
    segments: sentencesOf(text, words),
    duration: Math.round((spoken.duration + delay) * 1000) / 1000,
    model: endpoint,
    voice: String(voiceName),
  });
  const listed = simulator.catalog.speechModels.find((model) => model.id === endpoint);
  const per1000 = listed?.creditsPer1000Characters ?? served.creditsPer1000Characters;
  simulator.stats.speechMade(
    endpoint,
    text.length,
    spoken.duration,
    chargeInUnit((per1000 * text.length) / 1000, listed?.unit),
  );
  const made: FalSpeechRequest = {
    id: randomBytes(16).toString("hex"),
    endpoint,
    audioId: `aud_${randomBytes(12).toString("hex")}`,
    size: bytes.length,
  };
  mapOf(audioFiles, simulator).set(made.audioId, bytes);
  falSpeechRequests(simulator).set(made.id, made);
  return made;
}

/** A completed speech request's output, as fal answers it (the audio on the "CDN"). */
export function falSpeechOutput(simulator: SimulatorContext, made: FalSpeechRequest) {
  return {
    audio: {
      url: `${simulator.url}/fal-cdn/audio/${made.audioId}.mp3`,
      content_type: "audio/mpeg",
      file_name: `${made.audioId}.mp3`,
      file_size: made.size,
    },
  };
}

/** `GET /fal-cdn/audio/{id}.mp3`: a speech result's audio; like fal's CDN, it needs no key. */
export const handleFalAudioFile: RouteHandler = async (context, simulator) => {
  const id = (context.params.name ?? "").replace(/\.mp3$/, "");
  const bytes = mapOf(audioFiles, simulator).get(id);
  if (!bytes) throw new HttpError(404, `No audio found with id '${id}'.`, { code: "not_found" });
  await sendStored(context, { contentType: "audio/mpeg", body: bytes }, false);
};

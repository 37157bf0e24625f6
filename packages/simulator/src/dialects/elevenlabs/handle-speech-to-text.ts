import { probeDuration } from "../../audio/probe-duration.js";
import { HttpError } from "../../errors/http-error.js";
import type { RouteHandler, SimulatorContext } from "../../server/context.js";
import { readForm } from "../../server/read-form.js";

/** ElevenLabs' speech-to-text models (Scribe), and the credits a minute of audio costs here. */
export const scribeModels: readonly { model_id: string; creditsPerMinute: number }[] =
  Object.freeze([
    { model_id: "scribe_v1", creditsPerMinute: 6 },
    { model_id: "scribe_v2", creditsPerMinute: 6 },
  ]);

const granularities = ["none", "word", "character"];

/** Scribe's models, a profile's transcription model of the same id setting its price. */
function servedScribeModels(simulator: SimulatorContext) {
  const listed = new Map(simulator.catalog.transcriptionModels.map((model) => [model.id, model]));
  return scribeModels.map((model) => {
    const profile = listed.get(model.model_id);
    return profile ? { ...model, creditsPerMinute: profile.creditsPerMinute } : model;
  });
}

function unprocessable(message: string): HttpError {
  return new HttpError(422, message, { code: "invalid_request" });
}

/**
 * `POST /v1/speech-to-text` (multipart: `model_id`, `file`, `language_code`,
 * `timestamps_granularity` none|word|character, default word): `{ language_code,
 * language_probability, text, words }`, each word `{ text, start, end, type: "word" | "spacing",
 * logprob }`. Audio the simulator spoke itself (the very bytes, from either text-to-speech) is
 * given back word for word with its exact times; other audio is probed for its length and
 * answered with an empty text (nothing is invented). Charged per minute of audio, rounded up.
 * A synchronous call without an idempotency key.
 */
export const handleSpeechToText: RouteHandler = async (context, simulator) => {
  const form = await readForm(context, simulator.maxBodyBytes);
  const field = (name: string) => {
    const value = form.fields[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const models = servedScribeModels(simulator);
  const model = models.find((entry) => entry.model_id === field("model_id"));
  if (!model)
    throw unprocessable(
      `model_id must be one of ${models.map((entry) => entry.model_id).join(", ")}; got ${JSON.stringify(field("model_id") ?? null)}.`,
    );
  const file = form.files.find((entry) => entry.field === "file");
  if (!file && field("cloud_storage_url") === undefined)
    throw unprocessable(
      "Send the audio as the multipart file field `file` (or a cloud_storage_url).",
    );
  if (!file)
    throw unprocessable("The simulator reads no cloud_storage_url: send the audio as `file`.");
  const granularity = field("timestamps_granularity") ?? "word";
  if (!granularities.includes(granularity))
    throw unprocessable(
      `timestamps_granularity must be one of ${granularities.join(", ")}; got ${JSON.stringify(granularity)}.`,
    );
  const spoken = simulator.spoken.recall(file.bytes);
  const duration = spoken?.duration ?? (await probeDuration(simulator, file.bytes));
  const credits = Math.ceil((model.creditsPerMinute * duration) / 60);
  simulator.stats.transcribed(duration, spoken !== undefined, credits);
  const words: Record<string, unknown>[] = [];
  if (granularity !== "none") {
    const written = writtenWords(spoken?.text ?? "", spoken?.words ?? []);
    for (const [index, word] of (spoken?.words ?? []).entries()) {
      const next = spoken?.words[index + 1];
      const entry: Record<string, unknown> = {
        text: written[index],
        start: word.start,
        end: word.end,
        type: "word",
        logprob: 0,
      };
      if (granularity === "character") {
        const step = (word.end - word.start) / Math.max(1, word.word.length);
        entry.characters = [...word.word].map((character, at) => ({
          text: character,
          start: Math.round((word.start + at * step) * 1000) / 1000,
          end: Math.round((word.start + (at + 1) * step) * 1000) / 1000,
        }));
      }
      words.push(entry);
      if (next)
        words.push({ text: " ", start: word.end, end: next.start, type: "spacing", logprob: 0 });
    }
  }
  await context.send(200, {
    language_code: field("language_code") ?? "eng",
    language_probability: 1,
    text: spoken?.text ?? "",
    words,
    audio_duration_secs: duration,
    transcription_id: `sim-${Date.now().toString(36)}`,
  });
};

/**
 * Each spoken word as the text writes it, its punctuation kept (`storm,`), as Scribe gives
 * its words.
 */
function writtenWords(text: string, words: readonly { word: string }[]): string[] {
  let at = 0;
  return words.map((word) => {
    const found = text.indexOf(word.word, at);
    if (found < 0) return word.word;
    let end = found + word.word.length;
    while (end < text.length && !/\s/.test(text[end] ?? " ")) end++;
    at = end;
    return text.slice(found, end);
  });
}

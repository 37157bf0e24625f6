import { chargeInUnit } from "@reelsmith/core/catalog";
import { transcriptFormats as formats } from "../catalog/media-models.js";
import { HttpError } from "../errors/http-error.js";
import { fingerprint, type StoredAnswer } from "../server/answer-store.js";
import type { RouteHandler } from "../server/context.js";
import { idempotencyKeyOf, readForm } from "../server/read-form.js";
import { sendStored } from "../server/send-stored.js";
import { probeDuration } from "./probe-duration.js";
import type { SpokenRecord } from "./spoken-registry.js";
import { toSrt, toVtt } from "./transcript-formats.js";

function bad(message: string, param: string, code = "invalid_value"): HttpError {
  return new HttpError(400, message, { param, code });
}

function listOf(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * `POST /v1/audio/transcriptions` (multipart: file, model, response_format,
 * timestamp_granularities[], language). Audio the simulator spoke itself (the very bytes) is
 * given back word for word with each word's exact start and end; any other audio is probed
 * for its length and answered with an empty text: the simulator recognises no speech it did
 * not make, and never invents a transcript. Charged per minute of audio (rounded up).
 */
export const handleTranscriptions: RouteHandler = async (context, simulator) => {
  const form = await readForm(context, simulator.maxBodyBytes);
  const field = (name: string) => {
    const value = form.fields[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const models = simulator.catalog.transcriptionModels;
  const model = models.find((entry) => entry.id === field("model"));
  if (!model) {
    throw new HttpError(
      400,
      `The model '${String(field("model"))}' does not exist or is not a transcription model; use one of ${models.map((entry) => entry.id).join(", ") || "(none)"}.`,
      { param: "model", code: "model_not_found" },
    );
  }
  const file = form.files.find((entry) => entry.field === "file");
  if (!file)
    throw bad("Send the audio as the multipart file field `file`.", "file", "missing_file");
  const format = field("response_format") ?? "json";
  if (!formats.includes(format))
    throw bad(
      `response_format must be one of ${formats.join(", ")}; got ${JSON.stringify(format)}.`,
      "response_format",
    );
  const granularities = [
    ...listOf(form.fields["timestamp_granularities[]"]),
    ...listOf(form.fields.timestamp_granularities),
  ];
  for (const granularity of granularities) {
    if (granularity !== "word" && granularity !== "segment")
      throw bad(
        `timestamp_granularities[] takes word and segment; got ${JSON.stringify(granularity)}.`,
        "timestamp_granularities",
      );
  }
  if (granularities.length > 0 && format !== "verbose_json")
    throw bad(
      "timestamp_granularities[] needs response_format verbose_json.",
      "timestamp_granularities",
    );
  if (granularities.includes("word") && !model.wordTimestamps)
    throw bad(
      `${model.id} gives no word timestamps; leave out timestamp_granularities[]=word.`,
      "timestamp_granularities",
    );
  const language = field("language");
  const request = {
    model: model.id,
    file: file.sha256,
    format,
    granularities,
    language: language ?? null,
  };
  const { answer, replayed } = await simulator.answers.answer(
    idempotencyKeyOf(context, simulator),
    fingerprint("audio.transcriptions", request),
    async (): Promise<StoredAnswer> => {
      const spoken = simulator.spoken.recall(file.bytes);
      const duration = spoken?.duration ?? (await probeDuration(simulator, file.bytes));
      const credits = chargeInUnit((model.creditsPerMinute * duration) / 60, model.unit);
      const transcript = spoken ?? { text: "", words: [], segments: [], duration };
      const answer = render(transcript, format, granularities, language, duration);
      simulator.stats.transcribed(duration, spoken !== undefined, credits);
      return answer;
    },
  );
  await sendStored(context, answer, replayed);
};

function render(
  transcript: Pick<SpokenRecord, "text" | "words" | "segments">,
  format: string,
  granularities: string[],
  language: string | undefined,
  duration: number,
): StoredAnswer {
  const text = (type: string, body: string): StoredAnswer => ({
    contentType: `${type}; charset=utf-8`,
    body: Buffer.from(body),
  });
  if (format === "text") return text("text/plain", `${transcript.text}\n`);
  if (format === "srt") return text("application/x-subrip", toSrt(transcript.segments));
  if (format === "vtt") return text("text/vtt", toVtt(transcript.segments));
  const usage = { type: "duration", seconds: Math.ceil(duration) };
  if (format === "json")
    return text("application/json", JSON.stringify({ text: transcript.text, usage }));
  const json: Record<string, unknown> = {
    task: "transcribe",
    language: language ?? "english",
    duration,
    text: transcript.text,
  };
  if (granularities.includes("word")) json.words = transcript.words;
  if (granularities.length === 0 || granularities.includes("segment")) {
    json.segments = transcript.segments.map((segment, id) => ({
      id,
      seek: 0,
      start: segment.start,
      end: segment.end,
      text: segment.text,
      tokens: [],
      temperature: 0,
      avg_logprob: 0,
      compression_ratio: 1,
      no_speech_prob: 0,
    }));
  }
  json.usage = usage;
  return text("application/json", JSON.stringify(json));
}

import type { TranscriptionResult } from "../../audio/audio-types.js";
import type { RequestProblem } from "../../errors/invalid-request-error.js";
import { accessOf } from "../../http/provider-access.js";
import { encodeForm } from "../../media-files/encode-form.js";
import { readFileInput } from "../../media-files/file-input.js";
import type { TranscriptionProvider } from "../transcription-provider.js";
import { elevenlabsSpeechProvider } from "./elevenlabs-speech.js";

/** ElevenLabs' speech-to-text models (Scribe). */
export const scribeModels: readonly string[] = Object.freeze(["scribe_v1", "scribe_v2"]);

/** One entry of Scribe's `words`: a word, the space between two, or a sound (`(laughter)`). */
interface ScribeWord {
  text?: unknown;
  start?: unknown;
  end?: unknown;
  type?: unknown;
}

/** The body of `POST /v1/speech-to-text`'s (one-channel) answer. */
interface ScribeAnswer {
  text?: unknown;
  language_code?: unknown;
  words?: ScribeWord[];
  audio_duration_secs?: unknown;
}

/**
 * ElevenLabs' speech-to-text (`POST /v1/speech-to-text`, Scribe, multipart `model_id`, `file`,
 * `timestamps_granularity`): the text and each word's start and end (its `type: "word"`
 * entries; spacing and audio events are left out). JSON only; it keeps no segments. A
 * synchronous call with no idempotency key, charged per length of audio: an answer lost after
 * the request may have arrived is never sent again.
 *
 * @example
 * ```ts
 * const { words } = await elevenlabsTranscriptionProvider.transcribe({ transport }, { params: { model: "scribe_v1", file: "narration.mp3", response_format: "verbose_json", timestamp_granularities: ["word"] }, idempotencyKey, spec: undefined, request: {} });
 * ```
 */
export const elevenlabsTranscriptionProvider: TranscriptionProvider = {
  ...accessOf(elevenlabsSpeechProvider),
  problems(params, spec) {
    const problems: RequestProblem[] = [];
    if (!spec && !scribeModels.includes(params.model)) {
      problems.push({
        field: "model",
        message: `ElevenLabs has no speech-to-text model ${JSON.stringify(params.model)}; use one of ${scribeModels.join(", ")} (or list it under the profile's transcription_models)`,
      });
    }
    const format = params.response_format;
    if (format !== undefined && format !== "json" && format !== "verbose_json") {
      problems.push({
        field: "response_format",
        message: `ElevenLabs answers speech-to-text in JSON only (json or verbose_json); got ${format}`,
      });
    }
    if (params.timestamp_granularities?.includes("segment")) {
      problems.push({
        field: "timestamp_granularities",
        message: "ElevenLabs times words, not segments: ask for word timestamps only",
      });
    }
    if (params.prompt !== undefined) {
      problems.push({
        field: "prompt",
        message: "ElevenLabs' speech-to-text takes no prompt; leave it out",
      });
    }
    return problems;
  },
  async transcribe({ transport }, { params, idempotencyKey, request }) {
    const file = await readFileInput(params.file, "file", "audio.mp3");
    const words = params.timestamp_granularities?.includes("word") ?? false;
    const body = await encodeForm(
      {
        model_id: params.model,
        language_code: params.language,
        timestamps_granularity: words ? "word" : "none",
      },
      [["file", file]],
    );
    const label = "POST /v1/speech-to-text";
    const response = await transport.json<ScribeAnswer>({
      method: "POST",
      path: "/v1/speech-to-text",
      rawBody: body,
      options: request,
      submission: { idempotencyKey, request: label },
    });
    const answer = response.data;
    if (typeof answer?.text !== "string")
      throw new TypeError(`${label} answered without a text (a multichannel or webhook answer?)`);
    const result: TranscriptionResult = { text: answer.text, requestId: response.requestId };
    if (typeof answer.language_code === "string") result.language = answer.language_code;
    if (typeof answer.audio_duration_secs === "number")
      result.duration = answer.audio_duration_secs;
    if (words) {
      result.words = (answer.words ?? [])
        .filter(
          (word) =>
            word.type === "word" &&
            typeof word.text === "string" &&
            typeof word.start === "number" &&
            typeof word.end === "number",
        )
        .map((word) => ({
          word: word.text as string,
          start: word.start as number,
          end: word.end as number,
        }));
    }
    return result;
  },
};

import type { HttpError } from "../../errors/http-error.js";
import { held } from "../../server/held-route.js";
import { referenceDialect } from "../reference/index.js";
import type { SimulatorDialect } from "../simulator-dialect.js";
import { handleSpeechToText } from "./handle-speech-to-text.js";
import { handleTextToSpeech } from "./handle-text-to-speech.js";
import { handleModels, handleSearchVoices, handleVoices } from "./handle-voices.js";

/** ElevenLabs' name of an error, by status where the simulator's own code is not one of its. */
function statusOf(error: HttpError): string {
  if (error.status === 429) return "too_many_concurrent_requests";
  if (error.status === 503) return "system_busy";
  if (error.status === 401)
    return error.code === "missing_api_key" ? "needs_authorization" : "invalid_api_key";
  return error.code;
}

/**
 * ElevenLabs: speech and transcription. `xi-api-key` auth,
 * `POST /v1/text-to-speech/{voice_id}/with-timestamps`, `POST /v1/speech-to-text` (Scribe),
 * `GET /v1/voices`, `GET /v2/voices`, `GET /v1/models` (its own list, before the shared
 * one), and errors as `{ detail: { status, message } }`. It has no video API. Its speech
 * and transcriptions are paid requests answered at once: held in the stats while answered.
 */
export const elevenlabsDialect: SimulatorDialect = {
  name: "elevenlabs",
  authScheme: "",
  authHeader: "xi-api-key",
  routes: [
    {
      pattern: "/v1/text-to-speech/:voice_id/with-timestamps",
      methods: { POST: held(handleTextToSpeech) },
      faultRoute: "audio.speech",
    },
    {
      pattern: "/v1/speech-to-text",
      methods: { POST: held(handleSpeechToText) },
      faultRoute: "audio.transcriptions",
    },
    { pattern: "/v1/voices", methods: { GET: handleVoices }, faultRoute: "models" },
    { pattern: "/v2/voices", methods: { GET: handleSearchVoices }, faultRoute: "models" },
    { pattern: "/v1/models", methods: { GET: handleModels }, faultRoute: "models" },
  ],
  videoRoutes: [],
  imageField: "image",
  // No video route answers a job in this dialect.
  jobJson: (job, helpers) => referenceDialect.jobJson(job, helpers),
  errorResponse(error) {
    return {
      status: error.status,
      body: { detail: { status: statusOf(error), message: error.message } },
    };
  },
};

import { createV1AudioSpeechProvider } from "../../audio/v1-audio-speech-provider.js";
import { createV1AudioTranscriptionProvider } from "../../audio/v1-audio-transcription-provider.js";
import { createV1ImagesProvider } from "../../images/v1-images-provider.js";
import { openaiVideoProvider } from "./openai-video.js";

export { openaiVideoProvider } from "./openai-video.js";

/** OpenAI's `POST /v1/audio/speech`. */
export const openaiSpeechProvider = createV1AudioSpeechProvider(openaiVideoProvider);

/** OpenAI's `POST /v1/images/generations` and `POST /v1/images/edits`. */
export const openaiImageProvider = createV1ImagesProvider(openaiVideoProvider);

/** OpenAI's `POST /v1/audio/transcriptions`. */
export const openaiTranscriptionProvider = createV1AudioTranscriptionProvider(openaiVideoProvider);

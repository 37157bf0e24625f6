import { createV1AudioSpeechProvider } from "../../audio/v1-audio-speech-provider.js";
import { openaiVideoProvider } from "./openai-video.js";

export { openaiVideoProvider } from "./openai-video.js";

/** OpenAI's `POST /v1/audio/speech`. */
export const openaiSpeechProvider = createV1AudioSpeechProvider(openaiVideoProvider);

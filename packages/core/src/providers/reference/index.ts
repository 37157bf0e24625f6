import { createV1AudioSpeechProvider } from "../../audio/v1-audio-speech-provider.js";
import { referenceVideoProvider } from "./reference-video.js";

export { isImageParam, referenceVideoProvider } from "./reference-video.js";

/** The interface's `POST /v1/audio/speech`. */
export const referenceSpeechProvider = createV1AudioSpeechProvider(referenceVideoProvider);

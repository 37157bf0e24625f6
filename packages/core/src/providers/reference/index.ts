import { createV1AudioSpeechProvider } from "../../audio/v1-audio-speech-provider.js";
import { createV1AudioTranscriptionProvider } from "../../audio/v1-audio-transcription-provider.js";
import { createV1ImagesProvider } from "../../images/v1-images-provider.js";
import { referenceVideoProvider } from "./reference-video.js";

export { isImageParam, referenceVideoProvider } from "./reference-video.js";

/** The interface's `POST /v1/audio/speech`. */
export const referenceSpeechProvider = createV1AudioSpeechProvider(referenceVideoProvider);

/** The interface's `POST /v1/images/generations` and `POST /v1/images/edits`. */
export const referenceImageProvider = createV1ImagesProvider(referenceVideoProvider);

/** The interface's `POST /v1/audio/transcriptions`. */
export const referenceTranscriptionProvider =
  createV1AudioTranscriptionProvider(referenceVideoProvider);

export type { FalFile, FalQueuedRequest, FalQueueStatus, FalVideoResult } from "./fal-api-types.js";
export { falApp, falJobId, parseFalJobId } from "./fal-endpoint.js";
export { falImageProvider } from "./fal-image.js";
export { falSpeechProvider, falSpeechTextFields } from "./fal-speech.js";
export { falVideoProvider } from "./fal-video.js";
export { falAspectRatio, falVideoInput, falVideoProblems } from "./fal-video-input.js";

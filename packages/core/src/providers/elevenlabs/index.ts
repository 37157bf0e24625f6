export { type CharacterAlignment, wordsFromAlignment } from "./alignment-words.js";
export { elevenlabsModels, elevenlabsSpeechProvider } from "./elevenlabs-speech.js";
export { elevenlabsTranscriptionProvider, scribeModels } from "./elevenlabs-transcription.js";

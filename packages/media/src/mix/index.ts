export {
  type Loudness,
  type LoudnormReport,
  measureLoudness,
  parseLoudnormReport,
} from "./measure-loudness.js";
export {
  type FilmSound,
  type FilmSoundParts,
  type LoudnessTarget,
  type MixFilmAudioOptions,
  type MixFilmAudioResult,
  type MixFilmSoundOptions,
  mixFilmAudio,
  mixFilmSound,
  type NarrationPlacement,
} from "./mix-film-audio.js";
export { type DuckSettings, defaultDuck, type MixGraphInput, mixGraph } from "./mix-graph.js";

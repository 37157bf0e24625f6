// @reelsmith/studio: a browser review of a runs folder (or a shared database's runs), started
// with `startStudio`; the host it is given (`StudioHost`) opens the service a decision, retake
// or pick pays with.
export type {
  OpenedService,
  SessionKind,
  SessionOptions,
  StudioHost,
} from "./actions/studio-host.js";
export { type Studio, type StudioOptions, startStudio } from "./server/start-studio.js";

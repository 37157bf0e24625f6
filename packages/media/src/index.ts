export * from "./concat/index.js";
export * from "./errors/index.js";
export * from "./filters/index.js";
export * from "./locate/index.js";
export type { MediaOptions } from "./options.js";
export * from "./probe/index.js";
export type { MediaProgress, ProgressListener } from "./process/progress.js";
export * from "./synthesize/index.js";

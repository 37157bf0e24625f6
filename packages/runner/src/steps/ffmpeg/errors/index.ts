export * from "./ffmpeg-step-error.js";

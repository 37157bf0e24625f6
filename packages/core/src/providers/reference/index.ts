export { isImageParam, referenceVideoProvider } from "./reference-video.js";

export { openaiVideoProvider } from "./openai-video.js";

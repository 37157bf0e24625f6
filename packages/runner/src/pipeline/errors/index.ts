export * from "./input-error.js";
export * from "./pipeline-load-error.js";

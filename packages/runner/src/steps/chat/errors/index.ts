export * from "./tool-command-error.js";

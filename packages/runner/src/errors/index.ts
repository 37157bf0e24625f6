export * from "./budget-exceeded-error.js";
export * from "./output-path-error.js";
export * from "./pipeline-changed-error.js";
export * from "./resume-error.js";
export * from "./runner-error.js";
export * from "./serialize-error.js";
export * from "./step-error.js";
export * from "./tool-command-error.js";

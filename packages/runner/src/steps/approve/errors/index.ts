export * from "./approval-refused-error.js";
export * from "./approval-rejected-error.js";
export * from "./approval-timeout-error.js";

export * from "./journal.js";
export * from "./journal-record.js";
export * from "./journal-state.js";
export * from "./step-journal.js";

// Pipeline side: expressions, loading, validation, planning.
export * from "./expressions/index.js";

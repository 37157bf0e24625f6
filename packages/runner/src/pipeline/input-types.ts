/** Types an input can declare. */
export const inputTypes = [
  "string",
  "number",
  "integer",
  "boolean",
  "array",
  "object",
  "file",
] as const;

import { splitTemplate } from "../expressions/template.js";

/**
 * Why a path named by the pipeline would leave the run directory, or undefined when it
 * stays inside. Only the literal parts of a template are judged here; values produced by
 * expressions are checked again when the step runs.
 *
 * @example
 * ```ts
 * outputPathProblem("../escape.mp4"); // "`../escape.mp4` leaves the run directory (`..`)"
 * outputPathProblem("clips/scene-${{ index }}.mp4"); // undefined
 * ```
 */
export function outputPathProblem(path: string): string | undefined {
  let segments: ReturnType<typeof splitTemplate>;
  try {
    segments = splitTemplate(path);
  } catch {
    return undefined; // reported as an expression error
  }
  const first = segments[0];
  if (first?.type === "text") {
    if (/^[\\/]/.test(first.text) || /^[A-Za-z]:/.test(first.text) || first.text.startsWith("~")) {
      return `\`${path}\` is an absolute path; outputs must stay inside the run directory`;
    }
  }
  if (path.includes("\0")) return "output path contains a NUL byte";
  // Join the literal parts with a placeholder for each expression and look for `..` components.
  const shape = segments.map((segment) => (segment.type === "text" ? segment.text : "x")).join("");
  if (shape.split(/[\\/]/).some((component) => component === "..")) {
    return `\`${path}\` leaves the run directory (\`..\`)`;
  }
  return undefined;
}

import type { LocalFileUse } from "../step-kind.js";
import type { ChatStepSpec } from "./chat-schema.js";

/** An argument of a tool command that names a script file (run from the pipeline's folder). */
const SCRIPT = /^[^-][^\s]*\.(?:mjs|cjs|js|ts|mts|py|sh|rb|pl|php|lua)$/i;

/**
 * The local files a chat step names: its images, the commands and scripts its tools run
 * (a bare command name is looked up on PATH), and the pipelines its tools run (an image
 * given as a URL or a data URI is not a local file; a data URI is still checked).
 * @example chatFiles({ images: ["still.png"] }) // [{ path: ["images", 0], file: "still.png", what: "image", format: "image" }]
 */
export function chatFiles(spec: ChatStepSpec): LocalFileUse[] {
  const files: LocalFileUse[] = [];
  (Array.isArray(spec.images) ? spec.images : []).forEach((image, index) => {
    if (typeof image === "string") {
      files.push({ path: ["images", index], file: image, what: "image", format: "image" });
    }
  });
  (Array.isArray(spec.tools) ? spec.tools : []).forEach((tool, index) => {
    const run = (tool as { run?: unknown }).run;
    if (Array.isArray(run)) {
      const [program, ...args] = run;
      if (typeof program === "string" && !program.includes("${{"))
        files.push({
          path: ["tools", index, "run", 0],
          file: program,
          what: "tool command",
          format: "program",
        });
      args.forEach((arg, at) => {
        if (typeof arg === "string" && SCRIPT.test(arg) && !arg.includes("${{"))
          files.push({ path: ["tools", index, "run", at + 1], file: arg, what: "tool script" });
      });
    }
    const pipeline = (tool as { pipeline?: unknown }).pipeline;
    if (typeof pipeline === "string") {
      files.push({
        path: ["tools", index, "pipeline"],
        file: pipeline,
        what: "tool pipeline",
        format: "pipeline",
      });
    }
  });
  return files;
}

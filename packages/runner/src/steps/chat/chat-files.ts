import type { LocalFileUse } from "../step-kind.js";
import type { ChatStepSpec } from "./chat-schema.js";

/**
 * The local files a chat step names: its images and the pipelines its tools run (an image
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

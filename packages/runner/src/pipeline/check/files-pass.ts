import { localFileProblem } from "../../files/local-file.js";
import { bodyPath, type CheckModel } from "./check-model.js";

const CODES = {
  file_not_found: "file_not_found",
  not_a_file: "not_a_file",
  file_unreadable: "file_unreadable",
  file_format: "file_format",
} as const;

const HINTS: Record<string, string> = {
  image: "images are PNG, JPEG, GIF or WebP files of at most 10 MiB",
  subtitles: "subtitles are SubRip (.srt), WebVTT (.vtt) or ASS files in UTF-8",
  audio: "audio tracks are MP3, WAV, Ogg, FLAC, AAC or M4A files",
};

/**
 * Files: every local file a step names literally (as its kind says: images, tool pipelines,
 * subtitles, audio tracks…) exists, is a file, can be read and has the format the step needs
 * — before anything is sent. Relative paths resolve from the pipeline file's folder; inline
 * pipelines (no folder) are not checked here.
 */
export function filesPass(model: CheckModel): void {
  if (model.baseDir === undefined) return;
  for (const step of model.steps) {
    if (!step.kind || !step.merged) continue;
    let uses: ReturnType<typeof step.kind.files>;
    try {
      uses = step.kind.files(step.merged as never);
    } catch {
      continue; // a malformed body the schema already reports
    }
    for (const use of uses) {
      if (use.file.includes("${{")) continue; // known at run time: checked then
      const problem = localFileProblem(use.file, model.baseDir, use.format, use.what);
      if (!problem) continue;
      const invalidImage = use.format === "image" && problem.code === "file_format";
      model.problems.push({
        path: bodyPath(step, use.path, model.defaults),
        message: problem.message,
        severity: "error",
        code: invalidImage ? "image_invalid" : CODES[problem.code],
        hint:
          problem.code === "file_not_found"
            ? "relative paths are resolved from the pipeline file's folder"
            : use.format
              ? HINTS[use.format]
              : undefined,
      });
    }
  }
}

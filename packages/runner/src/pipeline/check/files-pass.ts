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
  let written: WrittenPaths | undefined;
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
      // A file looked for in the run directory first may be one a step writes there.
      if (use.orWritten && problem.code === "file_not_found") {
        written ??= writtenPaths(model);
        if (written === "unknown" || written.some((pattern) => pattern.test(normal(use.file))))
          continue;
      }
      const invalidImage = use.format === "image" && problem.code === "file_format";
      model.problems.push({
        path: bodyPath(step, use.path, model.defaults),
        message: problem.message,
        severity: "error",
        code: invalidImage ? "image_invalid" : CODES[problem.code],
        hint:
          problem.code === "file_not_found"
            ? use.orWritten
              ? "relative paths are looked for in the run directory (no step of this pipeline writes this one), then in the pipeline file's folder"
              : "relative paths are resolved from the pipeline file's folder"
            : use.format
              ? HINTS[use.format]
              : undefined,
      });
    }
  }
}

/** The paths the pipeline's steps write, as patterns; "unknown" when a kind does not say. */
type WrittenPaths = RegExp[] | "unknown";

/** A relative path as steps name it: no leading `./`, forward slashes. */
const normal = (path: string) => path.replace(/\\/g, "/").replace(/^(\.\/)+/, "");

/**
 * Every path a step of the pipeline writes, as its kind's `writes` gives it, each `${{ … }}`
 * matching any text. A step whose kind does not say what it writes makes it "unknown".
 * @example writtenPaths(model) // [/^clips\/[\s\S]*\.mp4$/, /^joined\.mp4$/]
 */
function writtenPaths(model: CheckModel): WrittenPaths {
  const patterns: RegExp[] = [];
  for (const step of model.steps) {
    if (!step.kind || !step.merged || step.id === undefined) continue;
    if (!step.kind.writes) return "unknown";
    let paths: string[];
    try {
      paths = step.kind.writes(step.merged as never, step.id);
    } catch {
      return "unknown"; // a malformed body the schema already reports
    }
    for (const path of paths) {
      const parts = normal(path)
        .split(/\$\{\{[\s\S]*?\}\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
      patterns.push(new RegExp(`^${parts.join("[\\s\\S]*")}$`));
    }
  }
  return patterns;
}

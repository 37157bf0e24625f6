import { RunnerError } from "./runner-error.js";

/** One model a pipeline names that the service does not offer. */
export interface UnknownModelUse {
  kind: "chat" | "video";
  model: string;
  file: string;
  line: number;
  column: number;
}

/**
 * Models named in a pipeline (or its sub-pipelines) that the service does not offer, found
 * from its `GET /v1/models` before the first paid request: nothing was sent or paid.
 * @example throw new UnknownModelError([{ kind: "chat", model: "reel-chat-2", file: "p.yaml", line: 7, column: 14 }], ["reel-chat-1"], ["reel-video-1"]);
 */
export class UnknownModelError extends RunnerError {
  readonly unknown: UnknownModelUse[];
  readonly chatModels: string[];
  readonly videoModels: string[];
  declare readonly hint: string;
  constructor(unknown: UnknownModelUse[], chatModels: string[], videoModels: string[]) {
    const lines = unknown.map(
      (use) =>
        `${use.file}:${use.line}:${use.column}: ${use.kind} model \`${use.model}\` is not offered by the service`,
    );
    super(
      "unknown_model",
      `${unknown.length === 1 ? "a model the pipeline names is" : `${unknown.length} models the pipeline names are`} unknown to the service; nothing was sent:\n  ${lines.join("\n  ")}`,
      { category: "invalid", hint: unknownModelHint(unknown, chatModels, videoModels) },
    );
    this.unknown = unknown;
    this.chatModels = chatModels;
    this.videoModels = videoModels;
  }
}

/** What to do about unknown models: the models there are, and how to declare a video model. */
function unknownModelHint(
  unknown: UnknownModelUse[],
  chatModels: string[],
  videoModels: string[],
): string {
  const video = unknown.find((use) => use.kind === "video");
  return `chat models: ${chatModels.join(", ") || "none listed"}; video models: ${videoModels.join(", ") || "none known"} (reelsmith models lists them)${
    video
      ? `. A service that follows the interface does not list its video models: declare \`${video.model}\` with its limits and price under video_models: in a provider profile (reelsmith.config.yaml; \`reelsmith models --write-config --video-model ${video.model}\` writes a starting one)`
      : ""
  }`;
}

import { RunnerError } from "./runner-error.js";

/** One model a pipeline names that the service does not offer. */
export interface UnknownModelUse {
  /** The catalog the kind says holds it: the provider profile's section name (`chat_models`, `video_models`, …). */
  catalog: string;
  model: string;
  file: string;
  line: number;
  column: number;
  /** The known model of that catalog closest to it, when one is close. */
  near?: string;
  /** Where the name comes from when the field does not write it (an input's default or value). */
  from?: string;
}

/** The models one catalog offers, as a message lists them. */
export interface KnownCatalog {
  catalog: string;
  models: string[];
  /** What the list is when empty: "none listed" (the service's list), "none known" (a profile's). */
  empty?: string;
}

/**
 * Models named in a pipeline (or its sub-pipelines) that the service does not offer, found
 * from its `GET /v1/models` before the first paid request: nothing was sent or paid. Each is
 * spoken of by its catalog's noun (`video_models` → "video model").
 * @example throw new UnknownModelError([{ catalog: "chat_models", model: "reel-chat-2", file: "p.yaml", line: 7, column: 14 }], [{ catalog: "chat_models", models: ["reel-chat-1"] }]);
 */
export class UnknownModelError extends RunnerError {
  readonly unknown: UnknownModelUse[];
  /** The models each catalog offers, in the order the kinds declare them. */
  readonly known: KnownCatalog[];
  declare readonly hint: string;
  constructor(unknown: UnknownModelUse[], known: KnownCatalog[], advice?: string) {
    const lines = unknown.map(
      (use) =>
        `${use.file}:${use.line}:${use.column}: ${modelNoun(use.catalog)} \`${use.model}\`${use.from ? ` (${use.from})` : ""} is not offered by the service${use.near ? `; did you mean \`${use.near}\`?` : ""}`,
    );
    super(
      "unknown_model",
      `${unknown.length === 1 ? "a model the pipeline names is" : `${unknown.length} models the pipeline names are`} unknown to the service; nothing was sent:\n  ${lines.join("\n  ")}`,
      {
        category: "invalid",
        hint: `${known
          .map(
            (entry) =>
              `${modelNoun(entry.catalog)}s: ${entry.models.join(", ") || (entry.empty ?? "none known")}`,
          )
          .join("; ")} (reelsmith models lists them)${advice ? `. ${advice}` : ""}`,
      },
    );
    this.unknown = unknown;
    this.known = known;
  }
}

/**
 * What one model of a catalog is called in words, from the catalog's section name.
 * @example modelNoun("video_models") // "video model"
 */
export function modelNoun(catalog: string): string {
  return `${catalog.replace(/_models$/, "").replaceAll("_", " ")} model`;
}

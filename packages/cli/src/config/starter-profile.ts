import type { ProviderName } from "@reelsmith/core/catalog";
import { Document, isMap, isNode, isScalar, type Node } from "yaml";
import { knownVideoFields, videoFields } from "./listed-models.js";

/** What a starting profile is written from. */
export interface StarterProfileInput {
  /** The `$schema` reference for editors (a path relative to the file, or a URL). */
  schema: string;
  /** Where the model list came from, for the header (e.g. the base URL). */
  listedFrom: string;
  /** The service's base URL; left out for a simulator started for the command. */
  baseURL?: string;
  dialect?: ProviderName;
  /** Why that dialect (a profile declares it, the service showed it), or what could not be told. */
  dialectReason?: string;
  /** Chat model ids the service lists. */
  chatModels: readonly string[];
  /** Video models the service lists with their metadata (a profile's video model shape). */
  listedVideoModels: readonly { id: string; video?: unknown }[];
  /** Video model ids named by the user (`--video-model`), listed or not. */
  namedVideoModels: readonly string[];
  /** Ids the service lists with no type (chat or video, nobody can tell). */
  kindUnknown?: readonly string[];
}

/** What to write in place of each unknown field of a video model. */
export const fillIn: Record<(typeof videoFields)[number], string> = {
  seconds: " fill in: allowed clip lengths, { min: 1, max: 8 } or a list such as [4, 8, 12]",
  sizes: " fill in: the sizes offered, e.g. [1280x720, 720x1280]",
  image: " fill in: true when it accepts a reference image",
  params: " fill in: provider parameters, e.g. { seed: integer, style: [vivid, natural] }",
  price: " fill in: credits per clip and/or per second, e.g. { per_clip: 0, per_second: 2 }",
};

function flowCollections(node: unknown): void {
  if (!isNode(node)) return;
  const collection = node as Node & { items?: unknown[]; flow?: boolean };
  if (!Array.isArray(collection.items)) return;
  collection.flow = true;
}

/**
 * The text of a starting provider profile: the `$schema` line, the service (its base URL,
 * `api_key_env: [REELSMITH_API_KEY]`, the dialect and flags with what they mean), every chat
 * model the service lists (capabilities unknown), and every video model it lists with
 * metadata or the user named, with each field it cannot know written as `null` and a comment
 * saying what to fill in. Never a key.
 *
 * @example
 * const text = starterProfile({ schema: "./node_modules/@reelsmith/core/schema/profile.schema.json",
 *   listedFrom: "https://api.example.com", baseURL: "https://api.example.com",
 *   chatModels: ["gpt-4o-mini"], listedVideoModels: [], namedVideoModels: ["veo-3-fast"] });
 */
export function starterProfile(input: StarterProfileInput): string {
  const listed = new Map(input.listedVideoModels.map((model) => [model.id, model.video]));
  const videoIds = [...new Set([...listed.keys(), ...input.namedVideoModels])];
  const video_models: Record<string, Record<string, unknown>> = {};
  for (const id of videoIds) {
    const known = knownVideoFields(id, listed.get(id));
    video_models[id] = Object.fromEntries(
      videoFields.map((field) => [field, known[field] ?? null]),
    );
  }
  const chatIds = input.chatModels.filter((id) => !videoIds.includes(id));
  const kindUnknown = (input.kindUnknown ?? []).filter(
    (id) => !videoIds.includes(id) && !chatIds.includes(id),
  );
  const document = new Document({
    service: {
      ...(input.baseURL ? { base_url: input.baseURL } : {}),
      api_key_env: ["REELSMITH_API_KEY"],
      dialect: input.dialect ?? "reference",
      idempotency_keys: false,
      lists_jobs: false,
    },
    video_models,
    chat_models: Object.fromEntries(chatIds.map((id) => [id, null])),
  });
  document.commentBefore = [
    ` yaml-language-server: $schema=${input.schema}`,
    ` A provider profile, written by \`reelsmith models --write-config\` from the model list of ${input.listedFrom}.`,
    " Fill in what is null: a null limit is not checked before sending, a null price gives no",
    " estimates or budgets (`reelsmith validate` names each model left unknown). Never write a",
    " key here: name the environment variables that hold it in api_key_env.",
  ].join("\n");
  const service = document.get("service", true);
  const comment = (path: (string | number)[], text: string) => {
    const node = document.getIn(path, true);
    if (isScalar(node)) node.comment = text;
  };
  if (!input.baseURL) {
    if (isMap(service))
      service.commentBefore = " base_url: https://… (the service's address; none was configured)";
  }
  const dialectKey = isMap(service)
    ? service.items.find((item) => isScalar(item.key) && item.key.value === "dialect")?.key
    : undefined;
  if (isScalar(dialectKey))
    dialectKey.commentBefore = wrapComment(
      `dialect: reference (the service interface: JSON POST /v1/videos) or openai (OpenAI's /v1/videos: multipart/form-data). ${input.dialectReason ? `${input.dialectReason}.` : ""}`,
    );
  comment(
    ["service", "idempotency_keys"],
    " true when a repeated Idempotency-Key answers with the job already made",
  );
  comment(["service", "lists_jobs"], " true when GET /v1/videos lists the account's jobs");
  flowCollections(document.getIn(["service", "api_key_env"], true));
  for (const id of videoIds) {
    for (const field of videoFields) {
      const node = document.getIn(["video_models", id, field], true);
      if (isScalar(node) && node.value === null) node.comment = fillIn[field];
      else flowCollections(node);
    }
    const untyped = input.kindUnknown?.includes(id) ?? false;
    if (!listed.has(id)) {
      const models = document.get("video_models", true);
      const pair = isMap(models)
        ? models.items.find((item) => isScalar(item.key) && item.key.value === id)
        : undefined;
      if (pair && isScalar(pair.key))
        pair.key.commentBefore = untyped
          ? " listed by the service without a type: named a video model with --video-model"
          : " not in the service's model list: named with --video-model";
    }
  }
  for (const id of chatIds)
    comment(["chat_models", id], " capabilities unknown: { images, json, tools } as true or false");
  if (kindUnknown.length > 0) {
    document.comment = [
      ` Listed by the service without a type (chat or video: it does not say). Move each you use`,
      " under chat_models: (id: null) or video_models: (with its limits and price, as above).",
      " Until then a chat step may name one, and so may a video step: its limits and price",
      " unknown, its requests are not checked before sending and have no estimate.",
      ...kindUnknown.map((id) => `   ${id}:`),
    ].join("\n");
  }
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}

/** A comment's text in lines of at most 88 characters, each starting with a space. */
export function wrapComment(text: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + word.length + 1 > 88) {
      lines.push(line);
      line = "";
    }
    line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((each) => ` ${each}`).join("\n");
}

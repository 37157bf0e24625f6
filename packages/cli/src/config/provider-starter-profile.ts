import {
  type ProviderModality,
  type ProviderName,
  providerAccess,
  providerModalities,
} from "@reelsmith/core/catalog";
import { Document, isMap, isScalar } from "yaml";
import { videoFields } from "./listed-models.js";
import { fillIn as videoFillIn, wrapComment } from "./starter-profile.js";

/**
 * The fields of a profile's model of each modality a provider serves, with what to write in
 * place of each unknown one.
 */
const fieldsToFill: Record<ProviderModality, Readonly<Record<string, string>>> = {
  video: Object.fromEntries(videoFields.map((field) => [field, videoFillIn[field]])),
  image: {
    sizes: " fill in: the sizes it draws, WIDTHxHEIGHT, e.g. [1024x1024, 1024x768]",
    max_images: " fill in: most images one request makes",
    price: " fill in: credits per image, e.g. { per_image: 3 }",
  },
  speech: {
    voices: " fill in: the voice ids you use",
    formats: " fill in: the audio formats it answers in, e.g. [mp3]",
    price: " fill in: credits per 1,000 characters, e.g. { per_1000_characters: 1000 }",
  },
  transcription: {
    word_timestamps: " fill in: true when it times each word",
    price: " fill in: credits per minute of audio, e.g. { per_minute: 6 }",
  },
};

/** What {@link providerStarterProfile} writes from. */
export interface ProviderStarterInput {
  schema: string;
  provider: ProviderName;
  /** The models the user named (`--model`), declared under the provider's first modality. */
  models: readonly string[];
}

/**
 * The text of a starting profile for a provider that lists no models (fal, Kling, …): its
 * dialect, usual base URL and key variables from the registry, the models the user named under
 * the section of the first modality the provider serves, every field unknown as `null` with a
 * comment saying what to fill in, and a comment naming the provider's other modalities.
 * Never a key.
 *
 * @example
 * providerStarterProfile({ schema, provider: "fal", models: ["fal-ai/kling-video/v2.1/standard/text-to-video"] });
 */
export function providerStarterProfile(input: ProviderStarterInput): string {
  const access = providerAccess(input.provider);
  const [first, ...others] = providerModalities(input.provider);
  const section = `${first}_models`;
  const fields: Readonly<Record<string, string>> = first ? fieldsToFill[first] : {};
  const document = new Document({
    service: {
      dialect: input.provider,
      ...(access.defaultBaseURL ? { base_url: access.defaultBaseURL } : {}),
      api_key_env: [...(access.keyParts ?? [access.keyEnv])],
    },
    [section]: Object.fromEntries(
      input.models.map((id) => [id, Object.fromEntries(Object.keys(fields).map((f) => [f, null]))]),
    ),
  });
  document.commentBefore = [
    ` yaml-language-server: $schema=${input.schema}`,
    wrapComment(
      `A provider profile for ${access.description}, written by \`reelsmith models --write-config --provider ${input.provider}\`. The provider lists no models: the ones named with --model are below, each field it cannot know as null. Fill them in from the model's page: a null limit is not checked before sending, a null price gives no estimates or budgets (\`reelsmith validate\` names each). Never write a key here: api_key_env names the variables that hold it.`,
    ),
  ].join("\n");
  const apiKeyEnv = document.getIn(["service", "api_key_env"], true);
  if (isMap(document.get("service", true)) && apiKeyEnv && typeof apiKeyEnv === "object")
    (apiKeyEnv as { flow?: boolean }).flow = true;
  for (const id of input.models) {
    for (const [field, text] of Object.entries(fields)) {
      const node = document.getIn([section, id, field], true);
      if (isScalar(node)) node.comment = text;
    }
  }
  const sectionNode = document.get(section, true);
  if (input.models.length === 0 && isMap(sectionNode))
    sectionNode.commentBefore = ` name each model: reelsmith models --write-config --provider ${input.provider} --model ID`;
  if (others.length > 0)
    document.comment = others
      .map(
        (modality) =>
          ` ${input.provider} also serves ${modality}: move or declare those models under ${modality}_models:, with ${Object.keys(fieldsToFill[modality] ?? {}).join(", ")}.`,
      )
      .join("\n");
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}

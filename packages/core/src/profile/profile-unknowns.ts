import type { ProviderProfile } from "./profile-types.js";
import { escapePointer } from "./secret-keys.js";

/** A field of a profile left unknown, which the checks then cannot use. */
export interface ProfileUnknown {
  /** JSON pointer of the missing or null field, e.g. `/video_models/veo-3/price`. */
  pointer: string;
  /** `video_models` or `chat_models`. */
  section: "video_models" | "chat_models";
  model: string;
  field: string;
  /** What goes unchecked, e.g. "seconds of veo-3 are not checked locally". */
  consequence: string;
}

const videoFields: Readonly<Record<string, string>> = {
  seconds: "clip lengths are not checked before sending",
  sizes: "sizes are not checked before sending",
  image: "reference images are not checked before sending",
  params: "provider parameters are not checked before sending",
  price: "no credit estimates or budgets for it",
};

const chatFields: Readonly<Record<string, string>> = {
  images: "image inputs are not checked before sending",
  json: "JSON mode is not checked before sending",
  tools: "tool use is not checked before sending",
};

/**
 * The fields of a (valid) profile that are left unknown (missing or null), so a caller can
 * warn "fill in `price` of veo-3 in reelsmith.config.yaml".
 *
 * @example
 * ```ts
 * for (const unknown of profileUnknowns(profile))
 *   warn(`fill in \`${unknown.field}\` of ${unknown.model} in ${file}: ${unknown.consequence}`);
 * ```
 */
export function profileUnknowns(profile: ProviderProfile): ProfileUnknown[] {
  const unknowns: ProfileUnknown[] = [];
  const collect = (
    section: "video_models" | "chat_models",
    models: Record<string, object | null> | undefined,
    fields: Readonly<Record<string, string>>,
  ) => {
    for (const [model, entry] of Object.entries(models ?? {})) {
      for (const [field, consequence] of Object.entries(fields)) {
        const value = (entry as Record<string, unknown> | null)?.[field];
        if (value !== undefined && value !== null) continue;
        unknowns.push({
          pointer: `/${section}/${escapePointer(model)}/${field}`,
          section,
          model,
          field,
          consequence: `${model}: ${consequence}`,
        });
      }
    }
  };
  collect("video_models", profile.video_models, videoFields);
  collect("chat_models", profile.chat_models, chatFields);
  return unknowns;
}

import type { ImageModelSpec } from "@reelsmith/core/profile";
import type { ModelCatalogs } from "../step-kind.js";

/** The catalog section image models are read from (the provider profile's own word). */
export const IMAGE_MODELS = "image_models";

/**
 * The image models a check, plan or run knows (a profile's `image_models`, the built-in
 * simulator's), as core reads them; undefined when none are known (nothing is checked).
 * An entry priced as the simulator lists it (`creditsPerImage`) is read as `price.perImage`.
 * @example imageModelsOf({ image_models: [{ id: "reel-image-1", sizes: ["1024x1024"] }] })?.[0]?.id // "reel-image-1"
 */
export function imageModelsOf(catalogs: ModelCatalogs | undefined): ImageModelSpec[] | undefined {
  const listed = catalogs?.[IMAGE_MODELS];
  if (!Array.isArray(listed)) return undefined;
  return listed.map((entry) => {
    const model = entry as ImageModelSpec & { creditsPerImage?: unknown };
    if (model.price || typeof model.creditsPerImage !== "number") return model;
    const { creditsPerImage, ...rest } = model;
    return { ...rest, price: { perImage: creditsPerImage as number } };
  });
}

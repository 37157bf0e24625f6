/** The Replicate model the tests use, as a Replicate user types it. */
export const klingModel = "kwaivgi/kling-v2.1";

/** A provider profile as YAML parses it: Replicate's API, one video model priced per second. */
export function replicateProfile(): Record<string, unknown> {
  return {
    service: {
      dialect: "replicate",
      base_url: "https://api.replicate.com/v1",
      api_key_env: ["REPLICATE_API_TOKEN"],
    },
    video_models: {
      [klingModel]: {
        seconds: [5, 10],
        sizes: ["1280x720", "720x1280", "720x720"],
        image: true,
        params: { negative_prompt: "string" },
        price: { per_second: 7 },
      },
    },
  };
}

/** The Replicate image model the tests use (FLUX.1 [schnell]). */
export const fluxModel = "black-forest-labs/flux-schnell";

/** {@link replicateProfile} with an image model priced per image. */
export function replicateImageProfile(): Record<string, unknown> {
  return {
    ...replicateProfile(),
    image_models: {
      [fluxModel]: {
        sizes: ["1024x1024", "1024x768", "1024x576"],
        max_images: 4,
        price: { per_image: 3 },
      },
    },
  };
}

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
